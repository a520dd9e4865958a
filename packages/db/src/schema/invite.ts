import { sql } from 'drizzle-orm';
import { REBATE_REASONS, REBATE_STATUSES } from '@proxy/contract';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, fen, createdAt } from './columns';

/**
 * Versions of the rebate rules (rate in basis points, amounts in fen). The
 * highest version is in force; every change is a new row, never an update,
 * and each rebate records the version that priced it.
 */
export const rebateRuleVersions = pgTable(
  'rebate_rule_versions',
  {
    version: integer('version').primaryKey(),
    rateBp: integer('rate_bp').notNull(),
    minChargeFen: fen('min_charge_fen').notNull(),
    maxRebateFen: fen('max_rebate_fen').notNull(),
    /** The operator who made it; null for the defaults of a fresh install. */
    createdBy: bigint('created_by', { mode: 'number' }),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check(
      'rebate_rule_versions_values',
      sql`${t.rateBp} BETWEEN 0 AND 5000 AND ${t.minChargeFen} >= 0 AND ${t.maxRebateFen} > 0`,
    ),
  ],
);

/**
 * Rebates: one per recharge order of an invitee (order_id is unique), created
 * pending in the settlement's transaction and paid to the inviter by a job
 * through the ledger (idempotency key rebate:<order id>).
 */
export const rebates = pgTable(
  'rebates',
  {
    id: id(),
    orderId: text('order_id').notNull(),
    inviterId: bigint('inviter_id', { mode: 'number' }).notNull(),
    inviteeId: bigint('invitee_id', { mode: 'number' }).notNull(),
    /** The recharge amount (without fee or gift). */
    chargeFen: fen('charge_fen').notNull(),
    rebateFen: fen('rebate_fen').notNull(),
    ruleVersion: integer('rule_version').notNull(),
    status: text('status', { enum: REBATE_STATUSES }).notNull().default('pending'),
    reason: text('reason', { enum: REBATE_REASONS }),
    /** Not paid before this (REBATE_HOLD_HOURS after the recharge). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** Taken back after a reversed recharge, and what could not be (the inviter's balance was short). */
    reversedFen: fen('reversed_fen').notNull().default(0),
    shortfallFen: fen('shortfall_fen').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rebates_order_key').on(t.orderId),
    index('rebates_inviter_idx').on(t.inviterId, t.id),
    index('rebates_due_idx').on(t.status, t.dueAt),
    check(
      'rebates_amounts',
      sql`${t.rebateFen} > 0 AND ${t.chargeFen} > 0 AND ${t.reversedFen} >= 0 AND ${t.shortfallFen} >= 0`,
    ),
  ],
);
