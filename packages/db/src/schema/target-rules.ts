import { sql } from 'drizzle-orm';
import { TARGET_RULE_MODES } from '@proxy/contract';
import { bigint, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef } from './columns';

/**
 * Target rules (packages/contract/src/target-rules.ts): an account's list
 * (token_id null) and proxies' own lists, one row per list. The rules are
 * stored canonical; gateways compile them when the gateway version changes.
 */
export const targetRuleLists = pgTable(
  'target_rule_lists',
  {
    id: id(),
    userId: userRef(),
    /** The proxy whose own list this is; null for the account's list. */
    tokenId: bigint('token_id', { mode: 'number' }),
    mode: text('mode', { enum: TARGET_RULE_MODES }).notNull(),
    rules: jsonb('rules').$type<string[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('target_rule_lists_account_key')
      .on(t.userId)
      .where(sql`${t.tokenId} IS NULL`),
    uniqueIndex('target_rule_lists_token_key').on(t.tokenId),
  ],
);
