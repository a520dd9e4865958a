import { sql } from 'drizzle-orm';
import { WORK_ORDER_ATTACHMENT_TYPES, WORK_ORDER_CATEGORIES, WORK_ORDER_STATUSES } from '@proxy/contract';
import { bigint, boolean, check, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';
import { users } from './users';

/** Binary data (bytea): Buffer both on PostgreSQL (node-postgres) and on PGlite (Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Work orders (tickets): a customer's question with a category and a subject;
 * the conversation is in work_order_messages. supply_request_id names one of
 * the customer's supply requests (supply_requests, no foreign key here).
 */
export const workOrders = pgTable(
  'work_orders',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    category: text('category', { enum: WORK_ORDER_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: WORK_ORDER_STATUSES }).notNull().default('open'),
    tokenId: bigint('token_id', { mode: 'number' }),
    supplyRequestId: bigint('supply_request_id', { mode: 'number' }),
    createdAt: createdAt(),
    /** Time of the last message or change of state. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was closed or cancelled. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('work_orders_user_idx').on(t.userId, t.id),
    index('work_orders_queue_idx').on(t.status, t.updatedAt),
    /** The work orders about a supply request (the supply list links each request to its newest one). */
    index('work_orders_supply_idx').on(t.supplyRequestId, t.id),
  ],
);

/** The messages of a work order's conversation, by the customer or an operator. */
export const workOrderMessages = pgTable(
  'work_order_messages',
  {
    id: id(),
    workOrderId: bigint('work_order_id', { mode: 'number' })
      .notNull()
      .references(() => workOrders.id),
    /** The customer, or the operator who wrote it. */
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    isOperator: boolean('is_operator').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('work_order_messages_order_idx').on(t.workOrderId, t.id)],
);

/**
 * Images sent with work order messages, stored in the database so every API
 * instance serves them. An upload belongs to its uploader and waits (no
 * message yet) until a new work order or a reply takes it.
 */
export const workOrderAttachments = pgTable(
  'work_order_attachments',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    messageId: bigint('message_id', { mode: 'number' }).references(() => workOrderMessages.id),
    filename: text('filename').notNull(),
    contentType: text('content_type', { enum: WORK_ORDER_ATTACHMENT_TYPES }).notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('work_order_attachments_message_idx').on(t.messageId),
    index('work_order_attachments_user_idx').on(t.userId, t.messageId),
    check('work_order_attachments_size', sql`${t.sizeBytes} > 0 AND ${t.sizeBytes} <= 5242880`),
  ],
);
