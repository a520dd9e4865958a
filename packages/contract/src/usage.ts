import { z } from 'zod';
import { PROXY_LISTS } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zDigits, zQueryDate } from './validators';

/**
 * Shared schemas of the traffic series (GET /token/session/traffic) and the
 * spend series (GET /user/statistics/amount).
 */

/** Bucket sizes of the traffic series. */
export const TRAFFIC_GRANULARITIES = ['hour', 'day'] as const;
/** Most buckets one traffic query may answer. */
export const TRAFFIC_POINTS_MAX = 2_400;

const zTzOffset = zDigits(
  z.number().int({ error: 'tzOffsetRange' }).min(-720, { error: 'tzOffsetRange' }).max(840, { error: 'tzOffsetRange' }),
).default(480);

/**
 * Query of GET /token/session/traffic: one token (token_id), the tokens of a
 * list, or all the user's tokens. `from`/`to` are instants (ISO); defaults:
 * the last 7 days up to now. Day buckets start at midnight in the
 * `tz_offset_minutes` zone (default 480, China); hour buckets are UTC hours.
 */
export const ZSessionTrafficQuery = z.object({
  token_id: zDigits(z.number().int({ error: 'invalidValue' }).positive({ error: 'invalidValue' })).optional(),
  list: z.enum(PROXY_LISTS, { error: 'invalidValue' }).optional(),
  from: zQueryDate.optional(),
  to: zQueryDate.optional(),
  granularity: z.enum(TRAFFIC_GRANULARITIES, { error: 'invalidValue' }).default('day'),
  tz_offset_minutes: zTzOffset,
});
/** Parsed traffic query. */
export type TSessionTrafficQuery = z.infer<typeof ZSessionTrafficQuery>;

/**
 * Answer of GET /token/session/traffic: zero-filled buckets (`at` is the
 * bucket's start, ISO) whose bytes sum to total_bytes, the charged usage; and
 * beside them the bytes metered but not charged (lost to a failure before the
 * target answered: docs/usage.md, "Bytes not charged"), summing to
 * total_uncharged_bytes.
 */
export const ZSessionTraffic = z.object({
  granularity: z.enum(TRAFFIC_GRANULARITIES),
  from: z.string(),
  to: z.string(),
  points: z.array(z.object({ at: z.string(), bytes: z.number().int(), uncharged_bytes: z.number().int() })),
  total_bytes: z.number().int(),
  total_uncharged_bytes: z.number().int(),
});
/** Parsed traffic series. */
export type TSessionTraffic = z.infer<typeof ZSessionTraffic>;

/** Periods of the spend chart, in days. */
export const STATISTICS_DAYS = [7, 30, 90] as const;

/** Query of GET /user/statistics/amount: the last 7, 30 or 90 days in the user's time zone. */
export const ZStatisticsAmountQuery = z.object({
  days: zDigits(z.number({ error: 'statisticsDays' }), 'statisticsDays')
    .refine((d) => (STATISTICS_DAYS as readonly number[]).includes(d), { error: 'statisticsDays' })
    .default(7),
  tz_offset_minutes: zTzOffset,
});
/** Parsed statistics query. */
export type TStatisticsAmountQuery = z.infer<typeof ZStatisticsAmountQuery>;

/**
 * Answer of GET /user/statistics/amount, in yuan: one point per day (YYYY-MM-DD
 * in the asked zone, oldest first, zero-filled). Spend is purchases, renewals
 * and other debits and consumed frozen money; recharge is paid top-ups (the
 * trial credit is not a recharge).
 */
export const ZStatisticsAmount = z.object({
  points: z.array(z.object({ date: z.string(), spend: z.number(), recharge: z.number() })),
  total_spend: z.number(),
  total_recharge: z.number(),
});
/** Parsed spend series. */
export type TStatisticsAmount = z.infer<typeof ZStatisticsAmount>;

/** Traffic and spend series. */
export const USAGE_ROUTES = {
  tokenSessionTraffic: defineRoute({
    method: 'GET',
    path: '/token/session/traffic',
    auth: 'user',
    isCachedPerUser: true,
    summary:
      'Charged traffic over time by hour or day (one proxy, a list, or all), and the bytes not charged beside it; the buckets sum to the totals',
    tag: 'proxy',
    input: ZSessionTrafficQuery,
    output: ZSessionTraffic,
  }),
  userStatisticsAmount: defineRoute({
    method: 'GET',
    path: '/user/statistics/amount',
    auth: 'user',
    summary: 'Spend and recharge per day in yuan over the last 7, 30 or 90 days (days, tz_offset_minutes; zero-filled)',
    tag: 'user',
    input: ZStatisticsAmountQuery,
    output: ZStatisticsAmount,
  }),
} as const satisfies Record<string, TRouteDef>;

/** Named target domains kept per proxy and UTC day in the usage by domain; the rest is summed as "other". */
export const DOMAIN_USAGE_KEPT = 100;

/**
 * Why a sticky session left its exit before its asked minutes were over (the session hold report): its pool or exit
 * failed and failover moved it, the pool reported another exit address, it stayed idle past the pool's session
 * limit, or the proxy stopped (disabled, expired, traffic used up).
 */
export const STICKY_SESSION_ENDS = ['failover', 'exit-changed', 'idle', 'proxy-stopped'] as const;
/** A sticky session's early end. */
export type TStickySessionEnd = (typeof STICKY_SESSION_ENDS)[number];
