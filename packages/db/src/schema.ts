import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => bigserial({ mode: 'number' }).primaryKey();
const userRef = () => bigint('user_id', { mode: 'number' }).notNull();
const fen = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Customer and operator accounts. */
export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** argon2id hash; null for accounts that only sign in through GitHub or Google. */
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
    /** Bumped by logout, password change or disabling: older access tokens answer -401. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Personal API key for the /api/v1 customer API. */
    apiKey: text('api_key').notNull(),
    inviteCode: text('invite_code').notNull(),
    invitedBy: bigint('invited_by', { mode: 'number' }),
    isAdmin: boolean('is_admin').notNull().default(false),
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
  ],
);

/** Per-user balances in fen; the ledger is the history, this row the current state. */
export const balances = pgTable(
  'balances',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey(),
    availableFen: fen('available_fen').notNull().default(0),
    frozenFen: fen('frozen_fen').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('balances_non_negative', sql`${t.availableFen} >= 0 AND ${t.frozenFen} >= 0`)],
);

/** Kinds of ledger movement. */
export const LEDGER_KINDS = ['credit', 'debit', 'freeze', 'release', 'consume'] as const;

/**
 * Immutable money history. For each user, the sums of available_delta and
 * frozen_delta equal the balance row.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** Why: trial, recharge, purchase, renew, supply, rebate, adjustment... */
    reason: text('reason').notNull(),
    availableDelta: fen('available_delta').notNull(),
    frozenDelta: fen('frozen_delta').notNull(),
    availableAfter: fen('available_after').notNull(),
    frozenAfter: fen('frozen_after').notNull(),
    /** What the movement is about (order id, token id...). */
    reference: text('reference'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_idempotency_key').on(t.userId, t.idempotencyKey),
    index('ledger_entries_user_idx').on(t.userId, t.id),
  ],
);

/** E-mailed verification codes (hashed). */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['register', 'reset', 'change_email'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_codes_lookup_idx').on(t.email, t.purpose, t.createdAt)],
);

/** GitHub / Google identities linked to accounts. */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    provider: text('provider', { enum: ['github', 'google'] }).notNull(),
    providerUserId: text('provider_user_id').notNull(),
    userId: userRef(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index('oauth_accounts_user_idx').on(t.userId)],
);

/** Pending OAuth sign-ins: state and PKCE verifier, single use. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider', { enum: ['github', 'google'] }).notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

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
  (t) => [index('notifications_user_idx').on(t.userId, t.id)],
);

/** The two IP lists of an account (spec section 3, "safe list entry"). */
export const IP_LIST_KINDS = ['whitelist', 'blacklist'] as const;

/**
 * IP whitelist and blacklist entries: a single address, a CIDR block or a
 * range, stored normalised (start/end as fixed-width hex for ordering).
 */
export const ipListEntries = pgTable(
  'ip_list_entries',
  {
    id: id(),
    userId: userRef(),
    list: text('list', { enum: IP_LIST_KINDS }).notNull(),
    /** Canonical text of the entry ("1.2.3.4", "10.0.0.0/24", "a-b"). */
    entry: text('entry').notNull(),
    kind: text('kind', { enum: ['single', 'cidr', 'range'] }).notNull(),
    family: integer('family').notNull(),
    /** First and last address as 32-digit hex. */
    startHex: text('start_hex').notNull(),
    endHex: text('end_hex').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ip_list_entries_unique_range').on(t.userId, t.list, t.family, t.startHex, t.endHex),
    index('ip_list_entries_user_idx').on(t.userId, t.list, t.id),
  ],
);

/**
 * One row whose version is bumped by every change the gateways must see
 * (tokens disabled, reset, deleted, expired; IP lists). Gateways poll it.
 */
export const gatewayState = pgTable('gateway_state', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
