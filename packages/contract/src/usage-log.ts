import { z } from 'zod';
import { zPage, ZPageQuery } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zDigits, zQueryDate } from './validators';

/**
 * The per-connection usage log (opt-in per account): each connection of the
 * user's proxies as the gateway metered it, kept 1-30 days, listed, totalled
 * and exported per proxy; also in the customer API.
 */

/** How a connection reached the gateway. */
export const USAGE_LOG_PROTOCOLS = ['http', 'connect', 'socks5'] as const;
/** One protocol. */
export type TUsageLogProtocol = (typeof USAGE_LOG_PROTOCOLS)[number];
/** How a connection ended: closed normally, refused by the gateway, or cut while open (exhaustion, expiry, disabling). */
export const USAGE_LOG_OUTCOMES = ['closed', 'refused', 'cut'] as const;
/** One outcome. */
export type TUsageLogOutcome = (typeof USAGE_LOG_OUTCOMES)[number];
/** Retention bounds in days. */
export const USAGE_LOG_RETENTION_MIN = 1;
export const USAGE_LOG_RETENTION_MAX = 30;
/** Retention of a new setting. */
export const USAGE_LOG_RETENTION_DEFAULT = 7;
/** Longest window one query covers. */
export const USAGE_LOG_RANGE_MAX_DAYS = 31;
/** Most rows one CSV export holds. */
export const USAGE_LOG_EXPORT_MAX = 100_000;

/**
 * The account's usage settings: the per-connection usage log (opt-in, `enabled`, kept `retention_days`) and the
 * usage by target domain (`domain_usage_enabled`, on by default; usage-domains.ts).
 */
export const ZUsageLogSettings = z
  .object({
    enabled: z.boolean(),
    retention_days: z.number().int(),
    domain_usage_enabled: z.boolean(),
  })
  .meta({ examples: [{ enabled: true, retention_days: 7, domain_usage_enabled: true }] });
/** Parsed setting. */
export type TUsageLogSettings = z.infer<typeof ZUsageLogSettings>;

/** Body of PUT /user/usage-log/settings. */
export const ZUsageLogSettingsBody = z.object({
  enabled: z.boolean({ error: 'booleanRequired' }),
  retention_days: z
    .number({ error: 'usageLogRetention' })
    .int({ error: 'usageLogRetention' })
    .min(USAGE_LOG_RETENTION_MIN, { error: 'usageLogRetention' })
    .max(USAGE_LOG_RETENTION_MAX, { error: 'usageLogRetention' }),
  /** Record traffic by target domain; absent: unchanged. Turning it off keeps the days already recorded. */
  domain_usage_enabled: z.boolean({ error: 'booleanRequired' }).optional(),
});
/** Parsed settings body. */
export type TUsageLogSettingsBody = z.infer<typeof ZUsageLogSettingsBody>;

const zTarget = z.string().trim().max(255, { error: 'tooLong' });

/** Filters of a usage log query: the window (connections that ended in it; default the last 24 hours), target host (part of it), outcome. */
export const ZUsageLogFilter = z.object({
  from: zQueryDate.optional(),
  to: zQueryDate.optional(),
  target: zTarget.optional(),
  outcome: z.enum(USAGE_LOG_OUTCOMES, { error: 'invalidValue' }).optional(),
});

const zTokenIdParam = zDigits(z.number().int({ error: 'invalidValue' }).positive({ error: 'invalidValue' }));

/** Query of GET /token/usage-log/{token_id}. */
export const ZUsageLogQuery = ZPageQuery.extend(ZUsageLogFilter.shape).extend({ token_id: zTokenIdParam });
/** Parsed usage log query. */
export type TUsageLogQuery = z.infer<typeof ZUsageLogQuery>;
/** Query of GET /token/usage-log/{token_id}/export. */
export const ZUsageLogExportQuery = ZUsageLogFilter.extend({ token_id: zTokenIdParam });
/** Parsed export query. */
export type TUsageLogExportQuery = z.infer<typeof ZUsageLogExportQuery>;

/** Query of GET /v1/proxies/{proxyId}/connections. */
export const ZV1UsageLogQuery = ZUsageLogFilter.extend({
  proxyId: zTokenIdParam,
  page: ZPageQuery.shape.page,
  pageSize: ZPageQuery.shape.page_size,
});
/** Parsed customer API query. */
export type TV1UsageLogQuery = z.infer<typeof ZV1UsageLogQuery>;

/** One connection of the log. */
export const ZUsageLogEntry = z
  .object({
    id: z.number().int(),
    token_id: z.number().int(),
    protocol: z.enum(USAGE_LOG_PROTOCOLS),
    source_ip: z.string(),
    target_host: z.string(),
    target_port: z.number().int(),
    started_at: z.string(),
    ended_at: z.string(),
    bytes_up: z.number().int(),
    bytes_down: z.number().int(),
    outcome: z.enum(USAGE_LOG_OUTCOMES),
    /** The gateway's refusal reason (refused, cut), null when closed normally. */
    reason: z.string().nullable(),
    /** Of bytes_up + bytes_down, those not charged: lost before the target answered (docs/usage.md). */
    uncharged_bytes: z.number().int(),
  })
  .meta({
    examples: [
      {
        id: 1,
        token_id: 42,
        protocol: 'connect',
        source_ip: '203.0.113.7',
        target_host: 'example.com',
        target_port: 443,
        started_at: '2026-11-23T08:00:00.000Z',
        ended_at: '2026-11-23T08:00:02.500Z',
        bytes_up: 812,
        bytes_down: 5120,
        outcome: 'closed',
        reason: null,
        uncharged_bytes: 0,
      },
    ],
  });
/** Parsed entry. */
export type TUsageLogEntry = z.infer<typeof ZUsageLogEntry>;

/** Sums over every connection matching the filters (not just the page). */
export const ZUsageLogTotals = z
  .object({
    connections: z.number().int(),
    bytes_up: z.number().int(),
    bytes_down: z.number().int(),
    bytes: z.number().int(),
    /** Of bytes, those not charged. */
    uncharged_bytes: z.number().int(),
  })
  .meta({ examples: [{ connections: 1, bytes_up: 812, bytes_down: 5120, bytes: 5932, uncharged_bytes: 0 }] });

/** Answer of a usage log query: a page, the totals and the window used. */
export const ZUsageLogPage = zPage(ZUsageLogEntry).extend({
  totals: ZUsageLogTotals,
  from: z.string().meta({ examples: ['2026-11-22T08:00:00.000Z'] }),
  to: z.string().meta({ examples: ['2026-11-23T08:00:00.000Z'] }),
  enabled: z.boolean().meta({ examples: [true] }),
});
/** Parsed page. */
export type TUsageLogPage = z.infer<typeof ZUsageLogPage>;

/** The usage log calls: the setting, a proxy's log and its CSV, and the customer API's list. */
export const USAGE_LOG_ROUTES = {
  userUsageLogSettings: defineRoute({
    method: 'GET',
    path: '/user/usage-log/settings',
    auth: 'user',
    summary:
      'Whether the per-connection usage log is on and for how many days it is kept, and whether usage by target domain is recorded',
    tag: 'user',
    output: ZUsageLogSettings,
  }),
  userUsageLogSettingsUpdate: defineRoute({
    method: 'PUT',
    path: '/user/usage-log/settings',
    auth: 'user',
    summary:
      'Turn the per-connection usage log on or off and choose its retention (1-30 days); turn usage by target domain on or off',
    tag: 'user',
    input: ZUsageLogSettingsBody,
    output: ZUsageLogSettings,
  }),
  tokenUsageLog: defineRoute({
    method: 'GET',
    path: '/token/usage-log/:token_id',
    auth: 'user',
    summary: "A proxy's connections (from, to, target, outcome), paged, with totals over the filters",
    tag: 'proxy',
    input: ZUsageLogQuery,
    output: ZUsageLogPage,
  }),
  tokenUsageLogExport: defineRoute({
    method: 'GET',
    path: '/token/usage-log/:token_id/export',
    auth: 'user',
    summary: "A proxy's connections matching the filters as CSV",
    tag: 'proxy',
    input: ZUsageLogExportQuery,
    isBlob: true,
  }),
  v1ProxyConnections: defineRoute({
    method: 'GET',
    path: '/v1/proxies/:proxyId/connections',
    auth: 'user-or-key',
    summary:
      "A proxy's connections from the usage log (opt in under the user centre): from, to, target, outcome, paged (page, pageSize), with totals equal to its metered usage",
    tag: 'customer-api',
    input: ZV1UsageLogQuery,
    output: ZUsageLogPage,
  }),
} as const satisfies Record<string, TRouteDef>;
