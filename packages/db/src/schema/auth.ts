import { CODE_PURPOSES, OAUTH_PROVIDERS, SIGN_IN_METHODS } from '@proxy/contract';
import {
  bigint,
  index,
  integer,
  varchar,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { id, userRef, createdAt } from './columns';
import { users } from './users';

/** E-mailed verification codes (hashed). */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: CODE_PURPOSES }).notNull(),
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
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
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
  provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Sign-in sessions: every access token carries its session id. Signing out
 * ends this row only; the user's token version still ends every session at
 * once (sign out everywhere, password change or reset, disabling).
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    method: text('method', { enum: SIGN_IN_METHODS }).notNull(),
    /** Device as the browser names itself (User-Agent), cut to 256 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** Address of the sign-in, then of the latest use. */
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
    /** Written at most once a minute. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the session is ended (sign-out, or ended from the session list). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId, t.id)],
);

/**
 * Attempt counters of the sign-in rate limits, shared by every API instance on
 * PostgreSQL (rate-limiter-flexible's table layout; PGlite counts in memory).
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  /** Unix time in milliseconds when the window ends. */
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Two-factor sign-in (TOTP, RFC 6238) of an account: one row from the start
 * of enrolment; enabled_at is set when the user confirms with a code (null:
 * enrolment started, not on). last_used_step is the time step of the latest
 * code accepted, so a code is never accepted twice within its window.
 */
export const userTotp = pgTable('user_totp', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  /** Base32 shared secret. */
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes of two-factor sign-in, stored as SHA-256 hashes; used_at set when one is spent. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/**
 * Failed password sign-ins per account across every address (the account's
 * key: "u<id>", or a hash of the name tried when no account has it), in a
 * window that starts with the first failure. Past the budget a sign-in must
 * bring a proof of work (before its password is checked); alerted_at is the
 * one alert e-mail of the window's burst.
 */
export const signInGuards = pgTable('sign_in_guards', {
  accountKey: text('account_key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  alertedAt: timestamp('alerted_at', { withTimezone: true }),
});

/** Proofs of work already spent on a sign-in (each challenge counts once); kept until the challenge expires. */
export const signInProofs = pgTable(
  'sign_in_proofs',
  {
    challengeId: text('challenge_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_proofs_expires_idx').on(t.expiresAt)],
);

/** One-time sign-in links e-mailed to an account's owner (SHA-256 of the token); used_at set when spent. */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: id(),
    userId: userRef().references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sign_in_links_token_key').on(t.tokenHash),
    index('sign_in_links_user_idx').on(t.userId, t.createdAt),
  ],
);
