import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';
import { DOMAIN_USAGE_KEPT } from './usage';
import { zDigits } from './validators';

/**
 * Usage by target domain: the bytes and connections of an account's proxies per target registrable domain
 * (`example.co.uk`; an IP address is its own domain) over UTC days, from the gateway's per-proxy, per-day rows
 * (table domain_usage). On by default; the account turns it off in the user centre (docs/usage.md).
 */

/** Days a query covers when it names none: the last 7 UTC days, today included. */
export const DOMAIN_USAGE_DEFAULT_DAYS = 7;
/** Most UTC days one query covers. */
export const DOMAIN_USAGE_RANGE_MAX_DAYS = 93;
/** Named domains one answer lists (the merged result's top, by bytes); the rest is added to "other". */
export const DOMAIN_USAGE_LISTED = DOMAIN_USAGE_KEPT;

/** A UTC day of a query: YYYY-MM-DD only. */
const zUtcDay = z.iso.date({ error: 'dateInvalid' });
const zTokenId = zDigits(z.number().int({ error: 'invalidValue' }).positive({ error: 'invalidValue' }));

/** The period of a domain usage query: UTC days, both included (default the last 7 days; at most 93). */
const zDomainPeriod = { from: zUtcDay.optional(), to: zUtcDay.optional() };

/** Query of GET /token/session/domains and its export: one proxy (token_id) or, without it, the whole account. */
export const ZDomainUsageQuery = z.object({ token_id: zTokenId.optional(), ...zDomainPeriod });
/** Parsed domain usage query. */
export type TDomainUsageQuery = z.infer<typeof ZDomainUsageQuery>;

/** Query of GET /v1/usage/domains: one proxy (proxyId) or, without it, the whole account. */
export const ZV1DomainUsageQuery = z.object({ proxyId: zTokenId.optional(), ...zDomainPeriod });
/** Parsed customer API query. */
export type TV1DomainUsageQuery = z.infer<typeof ZV1DomainUsageQuery>;

/** Bytes and connections of one domain (or of "other") over the period, with its share of the period's bytes. */
export const ZDomainUsageFigure = z.object({
  bytes: z.number().int(),
  connections: z.number().int(),
  /** Of the period's total bytes, 0 to 1 (4 decimals); 0 when the period has no bytes. */
  share: z.number(),
});
/** One figure. */
export type TDomainUsageFigure = z.infer<typeof ZDomainUsageFigure>;

/** One named domain of the answer. */
export const ZDomainUsageEntry = ZDomainUsageFigure.extend({ domain: z.string() });
/** One named domain. */
export type TDomainUsageEntry = z.infer<typeof ZDomainUsageEntry>;

/**
 * Answer of GET /token/session/domains: the named domains by bytes (most first, at most 100), "other" (every
 * domain past the 100 the gateway keeps per proxy and day, and past the 100 listed here), the period's totals
 * (the named domains plus other), and whether the account records domain usage now.
 */
export const ZDomainUsage = z
  .object({
    token_id: z.number().int().nullable(),
    /** The period, UTC days, both included. */
    from: z.string(),
    to: z.string(),
    enabled: z.boolean(),
    total_bytes: z.number().int(),
    total_connections: z.number().int(),
    domains: z.array(ZDomainUsageEntry),
    other: ZDomainUsageFigure,
  })
  .meta({
    examples: [
      {
        token_id: 42,
        from: '2026-11-17',
        to: '2026-11-23',
        enabled: true,
        total_bytes: 10_000,
        total_connections: 12,
        domains: [
          { domain: 'example.com', bytes: 7_000, connections: 8, share: 0.7 },
          { domain: 'example.co.uk', bytes: 2_500, connections: 3, share: 0.25 },
        ],
        other: { bytes: 500, connections: 1, share: 0.05 },
      },
    ],
  });
/** Parsed answer. */
export type TDomainUsage = z.infer<typeof ZDomainUsage>;

/** Usage by target domain in the console: the figures and their CSV. */
export const USAGE_DOMAIN_ROUTES = {
  tokenSessionDomains: defineRoute({
    method: 'GET',
    path: '/token/session/domains',
    auth: 'user',
    summary:
      'Traffic by target domain over UTC days (one proxy or the whole account): bytes, connections and share per domain, most first, with "other" and the totals',
    tag: 'proxy',
    input: ZDomainUsageQuery,
    output: ZDomainUsage,
  }),
  tokenSessionDomainsExport: defineRoute({
    method: 'GET',
    path: '/token/session/domains/export',
    auth: 'user',
    summary: 'Traffic by target domain over UTC days as CSV (the same figures as GET /token/session/domains)',
    tag: 'proxy',
    input: ZDomainUsageQuery,
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;
