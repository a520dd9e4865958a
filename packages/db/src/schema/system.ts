import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Operator-set settings, one row per key (value as JSON). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
