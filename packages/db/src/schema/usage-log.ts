import { sql } from 'drizzle-orm';
import { USAGE_LOG_OUTCOMES, USAGE_LOG_PROTOCOLS } from '@proxy/contract';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { userRef } from './columns';

/**
 * The per-connection usage log setting of an account (a row only once the
 * user chose): off by default; rows are kept `retention_days` (1-30) days.
 * Gateways load the enabled rows with their state (a change bumps the version).
 * `trim_until`: set when the retention is shortened, the last day rows written
 * under the longer retention can still exist; until then the retention job
 * deletes this account's rows older than the new retention (see
 * usage_log_entries).
 */
export const usageLogSettings = pgTable(
  'usage_log_settings',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    retentionDays: integer('retention_days').notNull().default(7),
    trimUntil: date('trim_until', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('usage_log_settings_retention_check', sql`${t.retentionDays} BETWEEN 1 AND 30`)],
);

/**
 * One connection of an opted-in user's proxy, written by the gateway in
 * batches (ids in gateway_usage_batches make a batch sent again a no-op).
 * `day` is the UTC date of the end; bytes are exactly what the meter counted
 * for the connection. `expires_on` is the last day the row is kept: `day` plus
 * the owner's retention when it was written.
 *
 * PARTITIONED (by hand, migration 0026; drizzle-kit cannot say it): `PARTITION
 * BY RANGE (expires_on)`, one partition per day (`usage_log_entries_pYYYYMMDD`
 * holds the rows expiring that day) and a DEFAULT partition
 * (`usage_log_entries_default`) that takes whatever arrives before its day's
 * partition exists. The server's usage-log jobs create the partitions of the
 * coming days and drop a partition whole once its day has passed. Hence the
 * primary key (id, expires_on): it must hold the partition key.
 */
export const usageLogEntries = pgTable(
  'usage_log_entries',
  {
    id: bigserial({ mode: 'number' }).notNull(),
    userId: userRef(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    protocol: text('protocol', { enum: USAGE_LOG_PROTOCOLS }).notNull(),
    sourceIp: text('source_ip').notNull(),
    targetHost: text('target_host').notNull(),
    targetPort: integer('target_port').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    bytesUp: bigint('bytes_up', { mode: 'number' }).notNull(),
    bytesDown: bigint('bytes_down', { mode: 'number' }).notNull(),
    outcome: text('outcome', { enum: USAGE_LOG_OUTCOMES }).notNull(),
    reason: text('reason'),
    /** What carried the connection ('pool:ID' or 'exit:ID'; operators only, never shown to the customer), or null. */
    carrier: text('carrier'),
    /** A sticky session's exit changed on this connection (its pool or exit was skipped, so another carried it). */
    exitChanged: boolean('exit_changed').notNull().default(false),
    /** Of the bytes, those not charged: lost to a failure before the target answered (docs/usage.md). */
    unchargedBytes: bigint('uncharged_bytes', { mode: 'number' }).notNull().default(0),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.expiresOn] }),
    index('usage_log_entries_token_idx').on(t.tokenId, t.endedAt),
    index('usage_log_entries_user_day_idx').on(t.userId, t.day),
  ],
);
