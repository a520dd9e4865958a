import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';

/** Generated endpoint files (spider records). */
export const spiderRecords = pgTable(
  'spider_records',
  {
    id: id(),
    userId: userRef(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    /** Area, session settings and line format used. */
    params: text('params').notNull(),
    lineCount: integer('line_count').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('spider_records_user_idx').on(t.userId, t.id)],
);
