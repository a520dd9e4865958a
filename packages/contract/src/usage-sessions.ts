import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { STICKY_SESSION_ENDS, type TStickySessionEnd } from './usage';
import { zId } from './validators';

/**
 * The session hold report (docs/usage.md, "Session hold report"): for each sticky session of a proxy in the last
 * days, the minutes asked, the minutes it kept one exit and why it ended early; with the share that held.
 */

/** Days of sessions the report covers (sticky_sessions rows are kept a day longer, then deleted). */
export const SESSION_HOLDS_DAYS = 7;

/** What each early end means, in both languages (the console's list and the API's `end_reason_text`). */
export const STICKY_SESSION_END_TEXTS = {
  failover: { zh: '代理池故障，已切换到其他出口', en: 'Pool failed, moved to another exit' },
  'exit-changed': { zh: '代理池更换了出口', en: 'The pool changed the exit' },
  idle: { zh: '空闲时间超过代理池的会话保持时长', en: 'Idle longer than the pool keeps a session' },
  'proxy-stopped': {
    zh: '代理已停止（已禁用、已过期或流量用完）',
    en: 'Proxy stopped (disabled, expired or traffic used up)',
  },
} as const satisfies Record<TStickySessionEnd, { zh: string; en: string }>;

/** Query of GET /token/session/holds: one proxy (required), paged. */
export const ZSessionHoldsQuery = ZPageQuery.extend({ token_id: zId });
/** Parsed session hold query. */
export type TSessionHoldsQuery = z.infer<typeof ZSessionHoldsQuery>;

/** Query of GET /v1/proxies/{proxyId}/sessions. */
export const ZV1SessionHoldsQuery = z.object({
  proxyId: zId,
  page: ZPageQuery.shape.page,
  pageSize: ZPageQuery.shape.page_size,
});
/** Parsed customer API query. */
export type TV1SessionHoldsQuery = z.infer<typeof ZV1SessionHoldsQuery>;

/** One sticky session in one of its windows. */
export const ZSessionHold = z.object({
  /** The session id the username asked for. */
  session: z.string(),
  /** First connection of the session in its window (ISO). */
  started_at: z.string(),
  /** Last connection of the session in its window (ISO). */
  last_seen_at: z.string(),
  asked_minutes: z.number().int(),
  /** Minutes it kept one exit: until it left it, else until its last connection (one decimal). */
  kept_minutes: z.number(),
  /** It kept its exit as long as it was used (no early end). */
  held: z.boolean(),
  /** Why it left its exit early; null when it held. */
  end_reason: z.enum(STICKY_SESSION_ENDS).nullable(),
  /** The reason in the request's language; null when it held. */
  end_reason_text: z.string().nullable(),
  connections: z.number().int(),
});
/** Parsed session. */
export type TSessionHold = z.infer<typeof ZSessionHold>;

/** Figures over every session of the period (not just the page). */
export const ZSessionHoldsSummary = z.object({
  sessions: z.number().int(),
  held: z.number().int(),
  /** held / sessions (0 to 1, four decimals); 0 without sessions. */
  held_share: z.number(),
  /** Sessions that ended early, per reason. */
  ends: z.object({
    failover: z.number().int(),
    'exit-changed': z.number().int(),
    idle: z.number().int(),
    'proxy-stopped': z.number().int(),
  }),
});
/** Parsed summary. */
export type TSessionHoldsSummary = z.infer<typeof ZSessionHoldsSummary>;

/** Answer of the session hold report: a page of sessions (newest first), the summary and the period covered. */
export const ZSessionHoldsPage = zPage(ZSessionHold)
  .extend({
    summary: ZSessionHoldsSummary,
    from: z.string(),
    to: z.string(),
  })
  .meta({
    examples: [
      {
        records: [
          {
            session: 'k3x9q2',
            started_at: '2026-11-23T08:00:00.000Z',
            last_seen_at: '2026-11-23T08:09:30.000Z',
            asked_minutes: 10,
            kept_minutes: 4.5,
            held: false,
            end_reason: 'failover',
            end_reason_text: 'Pool failed, moved to another exit',
            connections: 12,
          },
        ],
        total: 1,
        page: 1,
        page_size: 20,
        summary: {
          sessions: 1,
          held: 0,
          held_share: 0,
          ends: { failover: 1, 'exit-changed': 0, idle: 0, 'proxy-stopped': 0 },
        },
        from: '2026-11-16T08:10:00.000Z',
        to: '2026-11-23T08:10:00.000Z',
      },
    ],
  });
/** Parsed session hold report. */
export type TSessionHoldsPage = z.infer<typeof ZSessionHoldsPage>;

/** The console's session hold report of one proxy (the customer API's is in customer-api.ts). */
export const USAGE_SESSIONS_ROUTES = {
  tokenSessionHolds: defineRoute({
    method: 'GET',
    path: '/token/session/holds',
    auth: 'user',
    summary:
      "A proxy's sticky sessions of the last 7 days, newest first, paged: minutes asked and kept, whether each held and why it ended early, with the share that held",
    tag: 'proxy',
    input: ZSessionHoldsQuery,
    output: ZSessionHoldsPage,
  }),
} as const satisfies Record<string, TRouteDef>;
