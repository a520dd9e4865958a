import { sql } from 'drizzle-orm';
import { PROXY_NETWORKS, SUPPLY_PRODUCTS, SUPPLY_STATUSES, SUPPLY_TYPES } from '@proxy/contract';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef, fen, createdAt } from './columns';

/**
 * Supply (restock) requests: the fee (cost_fen) is frozen on submit and, in
 * the one transaction that ends the request, consumed (success, with the
 * proxy order of the allocation) or released (cancelled, failed, refunded).
 */
export const supplyRequests = pgTable(
  'supply_requests',
  {
    id: id(),
    userId: userRef(),
    type: text('type', { enum: SUPPLY_TYPES }).notNull(),
    product: text('product', { enum: SUPPLY_PRODUCTS }).notNull(),
    network: text('network', { enum: PROXY_NETWORKS }).notNull(),
    /** GB (traffic) or IPs (ip). */
    amount: integer('amount').notNull(),
    /** IP requests: days of each IP. */
    days: integer('days'),
    /** ISO 3166-1 alpha-2 country code. */
    region: text('region').notNull(),
    waitDays: integer('wait_days').notNull(),
    costFen: fen('cost_fen').notNull(),
    remark: text('remark').notNull().default(''),
    contactEmail: text('contact_email').notNull(),
    status: text('status', { enum: SUPPLY_STATUSES }).notNull().default('pending'),
    failReason: text('fail_reason'),
    /** The client's Idempotency-Key of the submit. */
    idempotencyKey: text('idempotency_key'),
    /** The operator who took it. */
    operatorId: bigint('operator_id', { mode: 'number' }),
    /** The proxy order of the allocation (success). */
    orderId: bigint('order_id', { mode: 'number' }),
    createdAt: createdAt(),
    /** created_at + wait_days: an open request past it is refunded. */
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('supply_requests_idempotency_key').on(t.userId, t.idempotencyKey),
    index('supply_requests_user_idx').on(t.userId, t.id),
    index('supply_requests_open_idx').on(t.status, t.deadlineAt),
    check('supply_requests_values', sql`${t.amount} > 0 AND ${t.costFen} > 0 AND ${t.waitDays} BETWEEN 1 AND 30`),
  ],
);

/**
 * Contact addresses of supply requests other than the account's own: a
 * request's e-mails go to one only once it is confirmed (confirmed_at, by the
 * link mailed to it, token_hash the SHA-256 of that link's token); until then
 * they go to the account's address. sent_at: the last confirmation e-mail.
 */
export const supplyContactEmails = pgTable(
  'supply_contact_emails',
  {
    userId: userRef(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.email] }), uniqueIndex('supply_contact_emails_token_key').on(t.tokenHash)],
);
