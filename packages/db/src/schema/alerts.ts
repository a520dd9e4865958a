import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, userRef, fen, createdAt } from './columns';
import { users } from './users';

/**
 * A user's alert settings (issue 20): which traffic thresholds alert, the
 * balance under which the account alerts (off while null), and each alert
 * kind's channels. An account without a row has the defaults.
 */
export const alertSettings = pgTable('alert_settings', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  /** Percentages of a traffic allowance that alert (of 50, 80, 100). */
  usageThresholds: integer('usage_thresholds').array().notNull(),
  /** Available balance in fen under which the account alerts; null is off. */
  balanceLowFen: fen('balance_low_fen'),
  /** Bumped when the balance is back at or above the threshold (or the threshold changes): the next fall is a new alert. */
  balanceLowPeriod: integer('balance_low_period').notNull().default(0),
  /** Whether the current balance period already alerted. */
  isBalanceLowAlerted: boolean('is_balance_low_alerted').notNull().default(false),
  /** Channels on or off per alert kind: { kind: { console, email } }; a kind missing is the default. */
  channels: jsonb('channels').$type<Record<string, { console?: boolean; email?: boolean }>>().notNull(),
  /** The language of the alert e-mails (the console's language when the settings were saved). */
  lang: text('lang', { enum: ['zh', 'en'] })
    .notNull()
    .default('zh'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One record per alert: what happened (kind), to what (subject: a proxy or
 * the account) and in which period; the unique key makes every alert written
 * once however many API instances run the jobs. The channels (console
 * notification, e-mail; later webhooks) are delivered from this record.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    kind: text('kind').notNull(),
    subjectType: text('subject_type', { enum: ['proxy', 'account'] }).notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** The period the alert belongs to: an allowance and threshold, an expiry, a balance period. */
    period: text('period').notNull(),
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull(),
    /** The e-mail channel: none (off), pending (to send), sent or failed. */
    mailState: text('mail_state', { enum: ['none', 'pending', 'sent', 'failed'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_events_key').on(t.subjectType, t.subjectId, t.kind, t.period),
    index('alert_events_user_idx').on(t.userId, t.id),
    index('alert_events_mail_idx').on(t.mailState, t.id),
  ],
);
