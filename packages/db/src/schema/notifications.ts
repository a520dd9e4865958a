import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';

/** Notifications shown in the console; texts in both languages. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind').notNull(),
    titleZh: text('title_zh').notNull(),
    titleEn: text('title_en').notNull(),
    contentZh: text('content_zh').notNull(),
    contentEn: text('content_en').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    /** The notification list's order (newest first by time). */
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
  ],
);
