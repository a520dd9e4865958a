import { sql } from 'drizzle-orm';
import { USER_STATUSES } from '@proxy/contract';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, fen, createdAt } from './columns';

/** Customer and operator accounts. */
export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** argon2id hash; null for accounts that only sign in through GitHub or Google. */
    passwordHash: text('password_hash'),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    /** Bumped by logout, password change or disabling: older access tokens answer -401. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Personal API key for the /api/v1 customer API. */
    apiKey: text('api_key').notNull(),
    inviteCode: text('invite_code').notNull(),
    invitedBy: bigint('invited_by', { mode: 'number' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * The account signs in with a password someone else saw (the operator's one-time password printed at the first
     * start): every call but the password change, the user's info and sign-out is refused until it is changed.
     */
    passwordChangeRequired: boolean('password_change_required').notNull().default(false),
    /** Traffic by target domain is recorded for the account's proxies (domain_usage); the customer may turn it off. */
    domainUsageEnabled: boolean('domain_usage_enabled').notNull().default(true),
    avatar: text('avatar').notNull().default(''),
    /** Cumulative real recharge in fen (drives the "user" role). */
    totalRechargeFen: fen('total_recharge_fen').notNull().default(0),
    trialGrantedAt: timestamp('trial_granted_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_api_key_key').on(t.apiKey),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    index('users_invited_by_idx').on(t.invitedBy),
    /** The invitee list: one inviter's accounts, newest first. */
    index('users_invited_by_id_idx').on(t.invitedBy, t.id),
    /** The few accounts that turned usage by domain off (the gateways load them at every change). */
    index('users_domain_usage_off_idx')
      .on(t.id)
      .where(sql`NOT ${t.domainUsageEnabled}`),
  ],
);

/**
 * The NOTIFY channel of changes to an account's rows (migration 0027: triggers
 * on the tables the API's cached answers are made from); payload: the
 * account's id.
 */
export const USER_ROWS_CHANNEL = 'user_rows';
