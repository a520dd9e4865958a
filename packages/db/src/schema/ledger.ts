import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef, fen, createdAt } from './columns';

/** Per-user balances in fen; the ledger is the history, this row the current state. */
export const balances = pgTable(
  'balances',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey(),
    availableFen: fen('available_fen').notNull().default(0),
    frozenFen: fen('frozen_fen').notNull().default(0),
    /** Owed after an operator reversed a recharge the balance could not cover; the next top-up settles it first. */
    debtFen: fen('debt_fen').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('balances_non_negative', sql`${t.availableFen} >= 0 AND ${t.frozenFen} >= 0 AND ${t.debtFen} >= 0`)],
);

/** Kinds of ledger movement. */
export const LEDGER_KINDS = ['credit', 'debit', 'freeze', 'release', 'consume'] as const;

/**
 * Immutable money history. For each user, the sums of available_delta and
 * frozen_delta equal the balance row.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** Why: trial, recharge, purchase, renew, supply, rebate, adjustment... */
    reason: text('reason').notNull(),
    availableDelta: fen('available_delta').notNull(),
    frozenDelta: fen('frozen_delta').notNull(),
    availableAfter: fen('available_after').notNull(),
    frozenAfter: fen('frozen_after').notNull(),
    /** What the movement is about (order id, token id...). */
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_idempotency_key').on(t.userId, t.idempotencyKey),
    index('ledger_entries_user_idx').on(t.userId, t.id),
  ],
);
