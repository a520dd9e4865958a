import { sql } from 'drizzle-orm';
import { PAYMENT_STATUSES, PAY_METHODS, PAY_MODES, USDT_NETWORKS, USDT_TRANSFER_STATUSES } from '@proxy/contract';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { id, userRef, fen, createdAt } from './columns';

/**
 * Recharge options: an amount and the gift the balance receives on top of it.
 * Operators change the set as a whole; each change is a new version with an
 * effective time (the latest version in effect is current), so an order
 * records the version whose gift it got.
 */
export const chargeOptions = pgTable(
  'charge_options',
  {
    id: id(),
    version: integer('version').notNull(),
    amountFen: fen('amount_fen').notNull(),
    giftFen: fen('gift_fen').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    /** When the version takes over (the same for every row of a version); the current set is the latest version in effect. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator who made the version; null for the defaults of a fresh install. */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('charge_options_effective_idx').on(t.effectiveAt, t.version),
    uniqueIndex('charge_options_version_amount_key').on(t.version, t.amountFen),
    check('charge_options_amounts', sql`${t.amountFen} > 0 AND ${t.giftFen} >= 0`),
  ],
);

/**
 * Payment methods an operator switched on or off (no row: on). A method is
 * offered when its provider is configured and it is on.
 */
export const payMethodSettings = pgTable('pay_method_settings', {
  method: text('method', { enum: PAY_METHODS }).primaryKey(),
  isEnabled: boolean('is_enabled').notNull(),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Recharge orders (the customer's bills). The customer pays price_fen
 * (amount + fee); on success the balance receives value_fen (amount + gift)
 * through the ledger, in the transaction that moves the order out of pending.
 */
export const payOrders = pgTable(
  'pay_orders',
  {
    /** Our order number, sent to the provider as out_trade_no. */
    id: text('id').primaryKey(),
    userId: userRef(),
    method: text('method', { enum: PAY_METHODS }).notNull(),
    mode: text('mode', { enum: PAY_MODES }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    amountFen: fen('amount_fen').notNull(),
    giftFen: fen('gift_fen').notNull().default(0),
    feeFen: fen('fee_fen').notNull(),
    priceFen: fen('price_fen').notNull(),
    valueFen: fen('value_fen').notNull(),
    optionVersion: integer('option_version'),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    /** What the customer opens or scans. */
    payUrl: text('pay_url'),
    qrCode: text('qr_code'),
    /** The provider's transaction id, once paid. */
    providerTxId: text('provider_tx_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Paid after the order had timed out, been cancelled or failed: credited all the same. */
    isPaidLate: boolean('is_paid_late').notNull().default(false),
    /** USDT orders: the exact amount to send, in 10^-6 USDT (unique among the network's open orders; usdt_amount_holds). */
    cryptoAmountUnits: bigint('crypto_amount_units', { mode: 'number' }),
    /** USDT orders: our receiving address when the order was made. */
    cryptoAddress: text('crypto_address'),
    /** USDT orders: yuan per USDT, frozen when the order was made (decimal text). */
    cryptoRate: text('crypto_rate'),
    /** Reversed by an operator (a refund made outside): when, why, what was taken back and what became debt. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversalNote: text('reversal_note'),
    reversedFen: fen('reversed_fen'),
    reversalDebtFen: fen('reversal_debt_fen'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pay_orders_user_idx').on(t.userId, t.createdAt),
    index('pay_orders_pending_idx').on(t.status, t.expiresAt),
    index('pay_orders_crypto_amount_idx').on(t.method, t.cryptoAmountUnits),
    uniqueIndex('pay_orders_provider_tx_key').on(t.method, t.providerTxId),
    check(
      'pay_orders_amounts',
      sql`${t.amountFen} > 0 AND ${t.priceFen} = ${t.amountFen} + ${t.feeFen} AND ${t.valueFen} = ${t.amountFen} + ${t.giftFen}`,
    ),
  ],
);

/** Outcomes of a payment notification as logged. */
export const PAY_NOTIFICATION_RESULTS = ['credited', 'replay', 'failed', 'refused'] as const;

/** Every payment notification received, with what came of it (refusals with their reason). */
export const payNotifications = pgTable(
  'pay_notifications',
  {
    id: id(),
    method: text('method', { enum: PAY_METHODS }).notNull(),
    orderId: text('order_id'),
    result: text('result', { enum: PAY_NOTIFICATION_RESULTS }).notNull(),
    reason: text('reason'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('pay_notifications_order_idx').on(t.orderId), index('pay_notifications_created_idx').on(t.createdAt)],
);

/**
 * Final USDT transfers of the official contract to our addresses, each once:
 * the key (network, transaction, log index) makes a transfer seen by two
 * watchers, or again after a restart, a no-op. A transfer either paid an
 * order (credited, through the ledger) or waits for an operator (unmatched);
 * none is dropped.
 */
export const usdtTransfers = pgTable(
  'usdt_transfers',
  {
    id: id(),
    network: text('network', { enum: USDT_NETWORKS }).notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    /** 10^-6 USDT, exact (a transfer may exceed any order). */
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }).notNull(),
    status: text('status', { enum: USDT_TRANSFER_STATUSES }).notNull(),
    /** The order it paid. */
    orderId: text('order_id'),
    /** The customer it was credited to. */
    userId: bigint('user_id', { mode: 'number' }),
    /** Why it matched no order. */
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('usdt_transfers_key').on(t.network, t.txHash, t.logIndex),
    index('usdt_transfers_status_idx').on(t.status, t.createdAt),
    check('usdt_transfers_amount', sql`${t.amountUnits} > 0`),
  ],
);

/** Where each network's watcher goes on: TRON, the block time (ms) it lists from; Ethereum, the next block it scans. Only moves forward. */
export const usdtWatchCursors = pgTable('usdt_watch_cursors', {
  network: text('network', { enum: USDT_NETWORKS }).primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The USDT amounts orders hold, one order per (network, amount) at a time:
 * an order holds its amount, paid or not, until its window for late
 * transfers has passed, so a transfer's amount names at most one order.
 */
export const usdtAmountHolds = pgTable(
  'usdt_amount_holds',
  {
    network: text('network', { enum: USDT_NETWORKS }).notNull(),
    amountUnits: bigint('amount_units', { mode: 'number' }).notNull(),
    orderId: text('order_id').notNull(),
    heldUntil: timestamp('held_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.amountUnits] })],
);
