import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, fen, createdAt } from './columns';

/** List prices in fen, editable by operators; defaults come from the contract. */
export const priceCatalogue = pgTable('price_catalogue', {
  key: text('key').primaryKey(),
  amountFen: fen('amount_fen').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Operators' price changes: one row per key and change, never updated. The
 * price of a key is its latest version whose effective time has passed (ties:
 * the higher id), else its price_catalogue row (the list price, version 0).
 * A version with a future effective time is scheduled and takes over by itself.
 */
export const priceVersions = pgTable(
  'price_versions',
  {
    /** The version number shown to operators and recorded by purchases. */
    id: id(),
    key: text('key').notNull(),
    amountFen: fen('amount_fen').notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    /** The operator who made it. */
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('price_versions_key_idx').on(t.key, t.effectiveAt, t.id),
    check('price_versions_amount', sql`${t.amountFen} > 0`),
  ],
);
