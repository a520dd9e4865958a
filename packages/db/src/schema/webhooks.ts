import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';
import { users } from './users';

/**
 * A customer's webhook endpoint (at most 5 per account): an https:// URL, the
 * events it subscribes to and its signing secret. Deliveries failing for 3
 * days turn it off (disabled_reason "failing").
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** HMAC-SHA256 key of the signatures (shown to the user once). */
    secret: text('secret').notNull(),
    events: text('events').array().notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    disabledReason: text('disabled_reason', { enum: ['failing'] }),
    /** The first failed delivery since the last success; null while it succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.id)],
);

/**
 * One event for a user's webhooks, written in the transaction of what
 * happened. `subject` (e.g. "proxy:12") orders deliveries: a later event of
 * a subject waits until the earlier one is delivered or given up.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    type: text('type').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_user_idx').on(t.userId, t.id)],
);

/**
 * The delivery queue and log: one row per event and endpoint (a resend adds
 * a row). The job claims a due row with a lease (lease_until); a server that
 * dies mid-delivery leaves the lease to expire and another pass redelivers it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: bigint('endpoint_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Due time of the next attempt; null: at once. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Set by the first attempt: retries stop after it (24 h). */
    giveUpAt: timestamp('give_up_at', { withTimezone: true }),
    /** An attempt in progress holds the row until then. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_pending_idx')
      .on(t.endpointId, t.subject, t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);
