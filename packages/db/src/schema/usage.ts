import { bigint, index, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { userRef } from './columns';

/** Metered traffic per token and hour. */
export const tokenUsage = pgTable(
  'token_usage',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    /** Start of the hour (UTC). */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.bucket] }), index('token_usage_user_idx').on(t.userId, t.bucket)],
);
