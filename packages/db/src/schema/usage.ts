import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { STICKY_SESSION_ENDS } from '@proxy/contract';
import { userRef } from './columns';

/**
 * Metered traffic per token and hour. `bytes` are charged (they count against the allowance and the bill);
 * `uncharged_bytes` were metered but lost to a failure on our side or the upstream's before the target answered
 * (docs/usage.md, "Bytes not charged"): shown to the customer, the operator's cost, never charged.
 */
export const tokenUsage = pgTable(
  'token_usage',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    /** Start of the hour (UTC). */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    unchargedBytes: bigint('uncharged_bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.bucket] }), index('token_usage_user_idx').on(t.userId, t.bucket)],
);

/** The domain row that sums every domain past a token's kept ones for the day ("other"). */
export const DOMAIN_USAGE_OTHER = '';

/**
 * Traffic per UTC day, token and target's registrable domain (Public Suffix List: `example.co.uk`; an IP address is
 * its own domain), written by the gateway in the transaction of the usage batch it belongs to, so exactly once: a
 * token's domain bytes of a day sum to its charged plus uncharged bytes of that day (while its owner keeps domain
 * usage on). At most DOMAIN_USAGE_KEPT named domains per token and day; the rest is summed in the '' row (other).
 */
export const domainUsage = pgTable(
  'domain_usage',
  {
    day: date('day', { mode: 'string' }).notNull(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    domain: text('domain').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /** Connections that ended on this day to the domain. */
    connections: bigint('connections', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.tokenId, t.domain] }),
    index('domain_usage_user_day_idx').on(t.userId, t.day),
  ],
);

/**
 * One sticky session (the username asked for a session) in one of its windows: the session id, the window every
 * gateway computes for it (rotation.ts), the minutes asked, when it was first and last used, what first carried it
 * and, when it left that exit before the window's end, when and why (the session hold report). Each gateway upserts
 * its view in its usage batch; the earliest change wins.
 */
export const stickySessions = pgTable(
  'sticky_sessions',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    session: text('session').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    askedMinutes: integer('asked_minutes').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** What carried it first ('pool:ID' or 'exit:ID'; operators only). */
    carrier: text('carrier'),
    /** Its exit address where known (an exit's, or the one a pool reported). */
    exitIp: text('exit_ip'),
    /** When it first left its exit before the window's end, and why (null: it held). */
    changedAt: timestamp('changed_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: STICKY_SESSION_ENDS }),
    connections: bigint('connections', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.session, t.windowStart] }),
    index('sticky_sessions_token_idx').on(t.tokenId, t.windowStart),
    index('sticky_sessions_user_idx').on(t.userId, t.windowStart),
  ],
);
