import { z } from 'zod';
import { ZArea, zAreaOffer, zCountryId } from './areas';
import { ENDPOINT_SESSIONS, SPIDER_COUNT_MAX } from './endpoint-generator';
import { zAreaOption, zCountryOption, zSesstimeQuery } from './endpoint-generator-options';
import { zPage } from './envelope';
import { EXPORT_LINE_FORMATS, PROXY_NETWORKS, ZProxyToken } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { ZDomainUsage, ZV1DomainUsageQuery } from './usage-domains';
import { ZSessionHoldsPage, ZV1SessionHoldsQuery } from './usage-sessions';
import { zDigits, zId } from './validators';

/**
 * Shared schemas of the customer API under /api/v1 (personal API key or bearer
 * token): areas, proxies and endpoint lines, with the spec's parameter names;
 * and the reset of the personal API key.
 */

const zV1Category = z.enum(['isp', 'idc'], { error: 'invalidValue' }).default('isp');

/** Query of GET /v1/areas/countries (product and billing: the areas that product can be bought in). */
export const ZV1CountriesQuery = z.object({ category: zV1Category, ...zAreaOffer });
/** Query of GET /v1/areas/states. */
export const ZV1StatesQuery = z.object({ category: zV1Category, ...zAreaOffer, countryId: zCountryId });
/** Query of GET /v1/areas/cities. */
export const ZV1CitiesQuery = z.object({
  category: zV1Category,
  ...zAreaOffer,
  countryId: zCountryId,
  stateId: zAreaOption.default(''),
});

/** Query of GET /v1/proxies: the caller's proxies, paged, filtered by protocol, area and exit address. */
export const ZV1ProxiesQuery = z.object({
  page: zDigits(
    z.number().int({ error: 'pageRange' }).min(1, { error: 'pageRange' }).max(1_000_000, { error: 'pageRange' }),
  ).default(1),
  pageSize: zDigits(
    z.number().int({ error: 'pageSizeRange' }).min(1, { error: 'pageSizeRange' }).max(200, { error: 'pageSizeRange' }),
  ).default(20),
  networkType: z.enum(PROXY_NETWORKS, { error: 'invalidValue' }).optional(),
  countryId: zCountryOption,
  stateId: zAreaOption,
  cityId: zAreaOption,
  /** Exit address of a static proxy's pinned exit. */
  ipAddress: z.string().trim().max(64, { error: 'ipAddressInvalid' }).optional(),
});
/** Parsed proxies query. */
export type TV1ProxiesQuery = z.infer<typeof ZV1ProxiesQuery>;
/** Answer of GET /v1/proxies (paged like every list: records, total, page, page_size). */
export const ZV1ProxyPage = zPage(ZProxyToken);

/**
 * Query of GET /v1/endpoints. With proxyId: `limit` lines of that proxy (a
 * dynamic one with the area and session options in its usernames; a static one
 * answers its single line). Without: one line per usable proxy (enabled, not
 * expired), filtered by networkType and countryId, at most `limit`.
 */
export const ZV1EndpointsQuery = z
  .object({
    proxyId: zId.optional(),
    countryId: zCountryOption,
    stateId: zAreaOption,
    cityId: zAreaOption,
    networkType: z.enum(PROXY_NETWORKS, { error: 'invalidValue' }).optional(),
    limit: zDigits(
      z
        .number()
        .int({ error: 'limitRange' })
        .min(1, { error: 'limitRange' })
        .max(SPIDER_COUNT_MAX, { error: 'limitRange' }),
    ).default(10),
    format: z.enum(['text', 'json'], { error: 'invalidValue' }).default('text'),
    /** Line format (text and the `line` field of JSON). */
    line: z.enum(EXPORT_LINE_FORMATS, { error: 'invalidValue' }).default('hpup'),
    session: z.enum(ENDPOINT_SESSIONS, { error: 'invalidValue' }).default('rotating'),
    sesstime: zSesstimeQuery,
  })
  .refine((v) => v.session === 'sticky' || v.sesstime === undefined, {
    error: 'sesstimeStickyOnly',
    path: ['sesstime'],
  })
  .refine((v) => !v.cityId || v.stateId, { error: 'stateRequired', path: ['stateId'] });
/** Parsed endpoints query. */
export type TV1EndpointsQuery = z.infer<typeof ZV1EndpointsQuery>;

/** One endpoint of GET /v1/endpoints?format=json. */
export const ZV1Endpoint = z
  .object({
    proxy_id: z.number().int(),
    host: z.string(),
    port: z.number().int(),
    username: z.string(),
    password: z.string(),
    network: z.enum(PROXY_NETWORKS),
    /** The endpoint in the asked line format. */
    line: z.string(),
    /** http://... or socks5://... by the proxy's network. */
    url: z.string(),
  })
  .meta({
    examples: [
      {
        proxy_id: 1024,
        host: 'gw.example.com',
        port: 7777,
        username: 'u1a2b3c4-country-us-session-k3x9q2-sesstime-10',
        password: 'p4ssw0rdX',
        network: 'HTTP',
        line: 'gw.example.com:7777:u1a2b3c4-country-us-session-k3x9q2-sesstime-10:p4ssw0rdX',
        url: 'http://u1a2b3c4-country-us-session-k3x9q2-sesstime-10:p4ssw0rdX@gw.example.com:7777',
      },
    ],
  });
/** Answer of GET /v1/endpoints?format=json (format=text answers text/plain lines instead). */
export const ZV1Endpoints = z.object({
  endpoints: z.array(ZV1Endpoint),
  total: z
    .number()
    .int()
    .meta({ examples: [1] }),
});
/** Parsed endpoints answer. */
export type TV1Endpoints = z.infer<typeof ZV1Endpoints>;

/** Answer of POST /user/api-key/reset: the new personal API key (the old one stops working at once). */
export const ZApiKeyReset = z.object({ token: z.string() });

/** The customer API under /api/v1 (personal API key or bearer token) and the key reset. */
export const CUSTOMER_API_ROUTES = {
  v1AreaCountries: defineRoute({
    method: 'GET',
    path: '/v1/areas/countries',
    auth: 'user-or-key',
    summary:
      'Countries with inventory: id (countryId), names in zh and en, available exits; with product and billing, also those upstream pools serve (supply, is_available)',
    tag: 'customer-api',
    input: ZV1CountriesQuery,
    output: z.array(ZArea),
  }),
  v1AreaStates: defineRoute({
    method: 'GET',
    path: '/v1/areas/states',
    auth: 'user-or-key',
    summary:
      'States with inventory in a country (countryId): id (stateId), names, available exits; with product and billing, pool-served ones too',
    tag: 'customer-api',
    input: ZV1StatesQuery,
    output: z.array(ZArea),
  }),
  v1AreaCities: defineRoute({
    method: 'GET',
    path: '/v1/areas/cities',
    auth: 'user-or-key',
    summary:
      'Cities with inventory in a country and state (countryId, stateId): id (cityId), names, available exits; with product and billing, pool-served ones too',
    tag: 'customer-api',
    input: ZV1CitiesQuery,
    output: z.array(ZArea),
  }),
  v1Proxies: defineRoute({
    method: 'GET',
    path: '/v1/proxies',
    auth: 'user-or-key',
    summary:
      'Your proxies with credentials, paged (page, pageSize), filtered by networkType, countryId, stateId, cityId and exit ipAddress',
    tag: 'customer-api',
    input: ZV1ProxiesQuery,
    output: ZV1ProxyPage,
  }),
  v1Endpoints: defineRoute({
    method: 'GET',
    path: '/v1/endpoints',
    auth: 'user-or-key',
    summary:
      'Endpoint lines of your proxies (proxyId, countryId, stateId, cityId, networkType, limit, session, sesstime, line): format=text answers text/plain, one per line; format=json the envelope',
    tag: 'customer-api',
    input: ZV1EndpointsQuery,
    output: ZV1Endpoints,
  }),
  v1UsageDomains: defineRoute({
    method: 'GET',
    path: '/v1/usage/domains',
    auth: 'user-or-key',
    summary:
      'Traffic by target domain over UTC days (from, to: YYYY-MM-DD, default the last 7, at most 93; proxyId or the whole account): bytes, connections and share per domain, most first, with "other" and the totals',
    tag: 'customer-api',
    input: ZV1DomainUsageQuery,
    output: ZDomainUsage,
  }),
  v1ProxySessions: defineRoute({
    method: 'GET',
    path: '/v1/proxies/:proxyId/sessions',
    auth: 'user-or-key',
    summary:
      "A proxy's sticky sessions of the last 7 days (the session hold report), newest first, paged (page, pageSize): minutes asked and kept, whether each held and why it ended early, with the share that held",
    tag: 'customer-api',
    input: ZV1SessionHoldsQuery,
    output: ZSessionHoldsPage,
  }),
  userApiKeyReset: defineRoute({
    method: 'POST',
    path: '/user/api-key/reset',
    auth: 'user',
    summary: 'Replace your personal API key (the old key stops working at once)',
    tag: 'user',
    output: ZApiKeyReset,
  }),
} as const satisfies Record<string, TRouteDef>;
