import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id } from './columns';

/**
 * Notices the operator publishes for the console's notice dialog; the newest
 * row is the notice shown. A new row makes every user see it again ("do not
 * show again" is stored per notice id in the browser).
 */
export const siteNotices = pgTable('site_notices', {
  id: id(),
  titleZh: text('title_zh').notNull(),
  titleEn: text('title_en').notNull(),
  contentZh: text('content_zh').notNull(),
  contentEn: text('content_en').notNull(),
  publishedBy: bigint('published_by', { mode: 'number' }).notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
});
