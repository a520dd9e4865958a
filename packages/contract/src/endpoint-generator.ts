import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { EXPORT_LINE_FORMATS, PROXY_NETWORKS, ZProxyToken } from './proxies-tokens';
import { SESSTIME_MAX_MINUTES } from './proxy-username';
import { ZArea, zCountryId } from './areas';
import { defineRoute, type TRouteDef } from './route-def';
import { zDigits, zId, zIdParam, zJsonNumber } from './validators';

/**
 * Shared schemas of the endpoint generator (spider records: POST
 * /token/create/spider, GET /token/spider/records, GET
 * /token/spider/record/file/{id}) and of the customer API under /api/v1.
 */

/** Session modes of generated endpoints: a new exit per connection, or a sticky session id per line. */
export const ENDPOINT_SESSIONS = ['rotating', 'sticky'] as const;
/** A session mode. */
export type TEndpointSession = (typeof ENDPOINT_SESSIONS)[number];
/** Most lines of one endpoint file. */
export const SPIDER_COUNT_MAX = 10_000;
/** Sticky minutes when none are given. */
export const SESSTIME_DEFAULT_MINUTES = 10;

const zAreaOption = z
  .string()
  .trim()
  .toLowerCase()
  .max(64, { error: 'tooLong' })
  .regex(/^[a-z0-9_]*$/, { error: 'invalidValue' })
  .optional();
const zCountryOption = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z]{2})?$/, { error: 'invalidValue' })
  .optional();
const sesstimeRule = zJsonNumber('sesstimeRange')
  .int({ error: 'sesstimeRange' })
  .min(1, { error: 'sesstimeRange' })
  .max(SESSTIME_MAX_MINUTES, { error: 'sesstimeRange' });
// The endpoint generator's body takes a JSON number; the customer API's query, decimal digits.
const zSesstime = sesstimeRule.optional();
const zSesstimeQuery = zDigits(sesstimeRule).optional();

/**
 * Body of POST /token/create/spider. Area options apply to dynamic tokens
 * (static tokens are pinned: their file has one plain line). `sesstime` is for
 * sticky sessions only (default 10 minutes).
 */
export const ZCreateSpiderBody = z
  .object({
    token_id: zJsonNumber('tokenRequired')
      .int({ error: 'invalidValue' })
      .positive({ error: 'tokenRequired' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' }),
    country_id: zCountryOption,
    state_id: zAreaOption,
    city_id: zAreaOption,
    session: z.enum(ENDPOINT_SESSIONS, { error: 'invalidValue' }).default('rotating'),
    sesstime: zSesstime,
    line: z.enum(EXPORT_LINE_FORMATS, { error: 'invalidValue' }).default('hpup'),
    count: zJsonNumber('spiderCountRange')
      .int({ error: 'spiderCountRange' })
      .min(1, { error: 'spiderCountRange' })
      .max(SPIDER_COUNT_MAX, { error: 'spiderCountRange' }),
  })
  .refine((v) => v.session === 'sticky' || v.sesstime === undefined, { error: 'sesstimeStickyOnly', path: ['sesstime'] })
  .refine((v) => !v.city_id || v.state_id, { error: 'stateRequired', path: ['state_id'] })
  .refine((v) => !v.state_id || v.country_id, { error: 'countryRequired', path: ['country_id'] });
/** Parsed endpoint file request. */
export type TCreateSpiderBody = z.infer<typeof ZCreateSpiderBody>;

/** Settings an endpoint file was made with. */
export const ZSpiderParams = z.object({
  country_id: z.string(),
  state_id: z.string(),
  city_id: z.string(),
  session: z.enum(ENDPOINT_SESSIONS),
  /** Sticky minutes; null for rotating. */
  sesstime: z.number().int().nullable(),
  line: z.enum(EXPORT_LINE_FORMATS),
  /** Lines asked for (a static token's file has one). */
  count: z.number().int(),
});
/** Parsed endpoint file settings. */
export type TSpiderParams = z.infer<typeof ZSpiderParams>;

/** An endpoint file (spider record) as the list shows it. */
export const ZSpiderRecord = z.object({
  id: z.number().int(),
  token_id: z.number().int(),
  /** The token's own username (without options). */
  token_username: z.string(),
  params: ZSpiderParams,
  line_count: z.number().int(),
  /** Download name, e.g. "endpoints-12.txt". */
  filename: z.string(),
  created_at: z.string(),
});
/** Parsed endpoint file. */
export type TSpiderRecord = z.infer<typeof ZSpiderRecord>;
/** Answer of POST /token/create/spider: the record and its lines (to copy at once). */
export const ZSpiderRecordWithLines = ZSpiderRecord.extend({ lines: z.array(z.string()) });
/** Parsed new endpoint file. */
export type TSpiderRecordWithLines = z.infer<typeof ZSpiderRecordWithLines>;
/** Query of GET /token/spider/records: paging and an optional token. */
export const ZSpiderRecordsQuery = ZPageQuery.extend({ token_id: zId.optional() });
/** A page of endpoint files. */
export const ZSpiderRecordPage = zPage(ZSpiderRecord);

// --- customer API (/api/v1): parameter names as the spec's area API ---------

const zV1Category = z.enum(['isp', 'idc'], { error: 'invalidValue' }).default('isp');

/** Query of GET /v1/areas/countries. */
export const ZV1CountriesQuery = z.object({ category: zV1Category });
/** Query of GET /v1/areas/states. */
export const ZV1StatesQuery = z.object({ category: zV1Category, countryId: zCountryId });
/** Query of GET /v1/areas/cities. */
export const ZV1CitiesQuery = z.object({ category: zV1Category, countryId: zCountryId, stateId: zAreaOption.default('') });

/** Query of GET /v1/proxies: the caller's proxies, paged, filtered by protocol, area and exit address. */
export const ZV1ProxiesQuery = z.object({
  page: zDigits(z.number().int({ error: 'pageRange' }).min(1, { error: 'pageRange' }).max(1_000_000, { error: 'pageRange' })).default(1),
  pageSize: zDigits(z.number().int({ error: 'pageSizeRange' }).min(1, { error: 'pageSizeRange' }).max(200, { error: 'pageSizeRange' })).default(20),
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
    limit: zDigits(z.number().int({ error: 'limitRange' }).min(1, { error: 'limitRange' }).max(SPIDER_COUNT_MAX, { error: 'limitRange' })).default(10),
    format: z.enum(['text', 'json'], { error: 'invalidValue' }).default('text'),
    /** Line format (text and the `line` field of JSON). */
    line: z.enum(EXPORT_LINE_FORMATS, { error: 'invalidValue' }).default('hpup'),
    session: z.enum(ENDPOINT_SESSIONS, { error: 'invalidValue' }).default('rotating'),
    sesstime: zSesstimeQuery,
  })
  .refine((v) => v.session === 'sticky' || v.sesstime === undefined, { error: 'sesstimeStickyOnly', path: ['sesstime'] })
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

/** Endpoint files (spider records). */
export const SPIDER_ROUTES = {
  tokenSpiderRecords: defineRoute({
    method: 'GET',
    path: '/token/spider/records',
    auth: 'user',
    summary: 'Generated endpoint files, newest first',
    tag: 'proxy',
    input: ZSpiderRecordsQuery,
    output: ZSpiderRecordPage,
  }),
  tokenCreateSpider: defineRoute({
    method: 'POST',
    path: '/token/create/spider',
    auth: 'user',
    summary: 'Generate an endpoint file: count lines of one proxy with area, session (rotating or sticky with sesstime) and line format',
    tag: 'proxy',
    input: ZCreateSpiderBody,
    output: ZSpiderRecordWithLines,
  }),
  tokenSpiderFile: defineRoute({
    method: 'GET',
    path: '/token/spider/record/file/:id',
    auth: 'user',
    summary: 'Download an endpoint file (text, one endpoint per line)',
    tag: 'proxy',
    input: zIdParam,
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;

/** The customer API under /api/v1 (personal API key or bearer token) and the key reset. */
export const CUSTOMER_API_ROUTES = {
  v1AreaCountries: defineRoute({
    method: 'GET',
    path: '/v1/areas/countries',
    auth: 'user-or-key',
    summary: 'Countries with inventory: id (countryId), names in zh and en, available exits',
    tag: 'customer-api',
    input: ZV1CountriesQuery,
    output: z.array(ZArea),
  }),
  v1AreaStates: defineRoute({
    method: 'GET',
    path: '/v1/areas/states',
    auth: 'user-or-key',
    summary: 'States with inventory in a country (countryId): id (stateId), names, available exits',
    tag: 'customer-api',
    input: ZV1StatesQuery,
    output: z.array(ZArea),
  }),
  v1AreaCities: defineRoute({
    method: 'GET',
    path: '/v1/areas/cities',
    auth: 'user-or-key',
    summary: 'Cities with inventory in a country and state (countryId, stateId): id (cityId), names, available exits',
    tag: 'customer-api',
    input: ZV1CitiesQuery,
    output: z.array(ZArea),
  }),
  v1Proxies: defineRoute({
    method: 'GET',
    path: '/v1/proxies',
    auth: 'user-or-key',
    summary: 'Your proxies with credentials, paged (page, pageSize), filtered by networkType, countryId, stateId, cityId and exit ipAddress',
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
  userApiKeyReset: defineRoute({
    method: 'POST',
    path: '/user/api-key/reset',
    auth: 'user',
    summary: 'Replace your personal API key (the old key stops working at once)',
    tag: 'user',
    output: ZApiKeyReset,
  }),
} as const satisfies Record<string, TRouteDef>;
