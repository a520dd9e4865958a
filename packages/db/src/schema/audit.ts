import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { users } from './users';

/** Outcome of an audited operator call. */
export const AUDIT_RESULTS = ['ok', 'error'] as const;

/**
 * What operators did: one row per admin call that changes data, written by the
 * routing layer. Rows are never updated or deleted (a trigger refuses both).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Route name in the contract's table, e.g. "adminUserSetStatus". */
    route: text('route').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** The id the call acted on (its :id path parameter), if any. */
    targetId: text('target_id'),
    /** The call's input with passwords, codes, keys and tokens removed. */
    input: jsonb('input').notNull(),
    result: text('result', { enum: AUDIT_RESULTS }).notNull(),
    /** Error name when the call failed. */
    errorCode: text('error_code'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_entries_created_idx').on(t.createdAt),
    index('audit_entries_operator_idx').on(t.operatorId, t.createdAt),
  ],
);
