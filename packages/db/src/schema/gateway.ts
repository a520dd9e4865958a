import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { proxyTokens } from './proxies';

/**
 * One row whose version is bumped by every change the gateways must see
 * (tokens bought, disabled, reset, deleted, expired; IP lists). The same
 * transaction NOTIFYs GATEWAY_CHANGES_CHANNEL; gateways listen, and poll the
 * version in case a notification was lost.
 */
/** The NOTIFY channel of gateway_state changes (payload: the new version). */
export const GATEWAY_CHANGES_CHANNEL = 'gateway_changes';

export const gatewayState = pgTable('gateway_state', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Usage batches a gateway has written: each flush is one batch with its own id,
 * recorded in the transaction that writes its bytes, so a batch sent again
 * (its commit's answer was lost) is skipped. Rows older than a day are purged.
 */
export const gatewayUsageBatches = pgTable(
  'gateway_usage_batches',
  {
    id: uuid('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gateway_usage_batches_created_idx').on(t.createdAt)],
);

/**
 * Running gateways (one row per process) and their heartbeat. A gateway whose
 * heartbeat is stale (killed, cut off) has its leases returned by a live one.
 */
export const gatewayInstances = pgTable('gateway_instances', {
  id: uuid('id').primaryKey(),
  /** host:pid, for operators. */
  label: text('label').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The part of a traffic token's `traffic_leased_bytes` each gateway holds and
 * has not yet written as used: claimed leases minus flushed usage. Returned
 * (subtracted from `traffic_leased_bytes`) on a clean stop, or by the sweep
 * when the gateway's heartbeat is stale.
 */
export const gatewayLeases = pgTable(
  'gateway_leases',
  {
    instanceId: uuid('instance_id').notNull(),
    tokenId: bigint('token_id', { mode: 'number' })
      .notNull()
      .references(() => proxyTokens.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.tokenId] })],
);

/**
 * Which live sticky session of an account holds an exit: two sessions of one account are not given the same exit
 * address (docs/gateway.md, "Exits not shared"). `exit_key` is 'exit:ID' for an inventory exit, 'ip:ADDRESS' for
 * the address a pool reported; `session_key` names the token, session and window; a claim lapses at `expires_at`
 * (the session window's end), after which another session may take the exit.
 */
export const sessionExitClaims = pgTable(
  'session_exit_claims',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    exitKey: text('exit_key').notNull(),
    sessionKey: text('session_key').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.exitKey] }), index('session_exit_claims_expires_idx').on(t.expiresAt)],
);
