import type { FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_TTL_S, type TLang, type TSession, type TSessionInfo, type TSignInMethod } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TCachedSession } from '../../lib/answer-cache';
import type { TDeps } from '../../lib/deps';
import { accountKeyOf } from '../../lib/rate-limiter';
import { createLedgerService } from '../ledger/ledger.service';
import { renderWelcomeMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import type { TUserRow } from '../accounts/accounts.repository';
import { bumpTokenVersion, updateLastLogin } from './auth.repository';
import {
  endAllUserSessions,
  endUserSession,
  findUserAndSession,
  insertSession,
  listLiveSessions,
  touchSession,
  type TSessionRow,
} from './sessions.repository';

/**
 * Sessions (ARCHITECTURE.md, API conventions): every sign-in is a
 * user_sessions row whose id is the access token's `sid`. Sign-out ends that
 * row only; the user's token version still ends every session at once (sign
 * out everywhere, password change or reset, disabling).
 */

/** Where a sign-in comes from and how it was made. */
export type TSignInOrigin = {
  method: TSignInMethod;
  ip: string;
  /** The User-Agent header as sent; stored cut to USER_AGENT_MAX characters. */
  userAgent?: string;
  lang: TLang;
};

/** Longest device name stored. */
export const USER_AGENT_MAX = 256;
/** A session's last use (time and address) is written at most this often. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

// The session of each authenticated request (set by authenticate, read by the session calls).
const requestSessions = new WeakMap<FastifyRequest, number>();

/** The User-Agent of a request, as a session stores it. */
export function userAgentOf(req: FastifyRequest): string {
  const header = req.headers['user-agent'];
  // Control characters (a NUL PostgreSQL text cannot hold) are dropped.
  return (Array.isArray(header) ? header[0] : (header ?? ''))
    .replace(/[\u0000-\u001f\u007f]/g, '') // eslint-disable-line no-control-regex
    .slice(0, USER_AGENT_MAX);
}

/** The session id of an authenticated request; SESSION_REVOKED when it has none (API-key calls). */
export function requireSessionId(req: FastifyRequest): number {
  const id = requestSessions.get(req);
  if (id === undefined) throw new AppError('SESSION_REVOKED');
  return id;
}

/**
 * The one way a session starts, whatever the method, once the user is known
 * to be who they say (signIn and its two-factor step, or the new session of
 * a password change, which asks no code: the user is signed in): refuses a
 * disabled account, writes the session row (method, device, address) and
 * last_login_at in one transaction, grants the trial credit on the first
 * sign-in of a customer (exactly once, with a notification; operators get none), clears the consecutive
 * failed sign-ins of the account from this address, sends the welcome
 * e-mail for a new account and signs the access token with the session id.
 * Checks that must hold for every sign-in belong here.
 */
export async function createSession(
  deps: TDeps,
  user: TUserRow,
  origin: TSignInOrigin,
  options: { isNewUser?: boolean } = {},
): Promise<TSession> {
  if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
  const now = deps.clock.now();
  const session = await deps.db.transaction(async (tx) => {
    const row = await insertSession(tx, {
      userId: user.id,
      method: origin.method,
      userAgent: (origin.userAgent ?? '').slice(0, USER_AGENT_MAX),
      ip: origin.ip,
      at: now,
    });
    await updateLastLogin(tx, user.id, now);
    return row;
  });
  // The trial credit is for customers: an operator account (the seeded one, or one made operator before its first
  // sign-in) gets none.
  if (!user.isAdmin) {
    const { isGranted } = await createLedgerService(deps).grantTrialCredit(user.id);
    if (isGranted) await writeNotification(deps, user.id, 'trial_credit');
  }
  try {
    await deps.authLimiter.recordSignIn(accountKeyOf(user.id), origin.ip);
  } catch (error) {
    deps.log.warn({ err: error }, 'sign-in limiter update failed');
  }
  if (options.isNewUser) {
    await sendMailQuietly(
      deps,
      user.email,
      renderWelcomeMail(origin.lang, { username: user.username, publicUrl: deps.config.publicUrl }),
    );
  }
  return {
    token: await deps.jwt.sign({ userId: user.id, tokenVersion: user.tokenVersion, sessionId: session.id }),
    expires_in: ACCESS_TOKEN_TTL_S,
    is_new_user: Boolean(options.isNewUser),
  };
}

/**
 * The signed-in user of a verified token, with its session, in one query:
 * SESSION_REVOKED for an unknown, disabled or re-versioned user (a revoked
 * token version) and for a session that is not the user's or has ended.
 * Stamps the session's last use and address at most once per
 * SESSION_TOUCH_INTERVAL_MS, and remembers it for the request.
 */
export async function resumeSession(
  deps: TDeps,
  req: FastifyRequest,
  claims: { userId: number; tokenVersion: number; sessionId: number },
  isCacheReady = false,
): Promise<TUserRow> {
  // Kept in memory until the user's row or the session's end changes (lib/answer-cache.ts).
  let found: TCachedSession<TUserRow, TSessionRow> | undefined = isCacheReady
    ? deps.answerCache.session(claims.userId, claims.sessionId)
    : undefined;
  if (!found) {
    const ticket = isCacheReady ? deps.answerCache.begin(claims.userId) : undefined;
    const row = await findUserAndSession(deps.db, claims.userId, claims.sessionId);
    if (row?.session && ticket) {
      // Frozen: every request of the session gets this same row.
      found = { user: Object.freeze(row.user), session: { ...row.session } };
      deps.answerCache.keepSession(ticket, claims.sessionId, found);
    } else if (row) {
      found = { user: row.user, session: row.session as TSessionRow };
    }
  }
  const user = found?.user;
  if (!user || user.tokenVersion !== claims.tokenVersion || user.status !== 'active')
    throw new AppError('SESSION_REVOKED');
  const row = found?.session;
  if (!row || row.endedAt) throw new AppError('SESSION_REVOKED');
  const now = deps.clock.now();
  const staleBefore = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS);
  if (row.lastUsedAt.getTime() <= staleBefore.getTime()) {
    // The kept copy is stamped too, so the next stamp is one interval later.
    row.lastUsedAt = now;
    await touchSession(deps.db, row.id, now, req.ip, staleBefore);
  }
  requestSessions.set(req, row.id);
  return user;
}

/** GET /user/refresh_token: a fresh token for the same session. */
export async function refreshSession(
  deps: TDeps,
  user: TUserRow,
  sessionId: number,
): Promise<{ token: string; expires_in: number }> {
  return {
    token: await deps.jwt.sign({ userId: user.id, tokenVersion: user.tokenVersion, sessionId }),
    expires_in: ACCESS_TOKEN_TTL_S,
  };
}

/**
 * GET /user/sessions: the sessions not ended that may still hold a valid
 * token (used within the token lifetime plus one touch interval), newest first.
 */
export async function listSessions(deps: TDeps, userId: number, currentSessionId: number): Promise<TSessionInfo[]> {
  const usedAfter = new Date(deps.clock.now().getTime() - ACCESS_TOKEN_TTL_S * 1000 - SESSION_TOUCH_INTERVAL_MS);
  const rows = await listLiveSessions(deps.db, userId, usedAfter);
  return rows.map((row) => ({
    id: row.id,
    method: row.method,
    user_agent: row.userAgent,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    is_current: row.id === currentSessionId,
  }));
}

/** POST /user/sessions/end/:id: ends one of the user's sessions; SESSION_NOT_FOUND (404) for another user's, an unknown or an ended one. */
export async function endSession(deps: TDeps, userId: number, sessionId: number): Promise<void> {
  // In a transaction: an operator's call (users-admin) has its audit entry written in it (features/audit).
  const isEnded = await deps.db.transaction((tx) => endUserSession(tx, userId, sessionId, deps.clock.now()));
  if (!isEnded) throw new AppError('SESSION_NOT_FOUND');
}

/** POST /user/logout: ends the caller's session only (already ended by a parallel call: nothing to do). */
export async function logout(deps: TDeps, userId: number, sessionId: number): Promise<void> {
  await endUserSession(deps.db, userId, sessionId, deps.clock.now());
}

/** POST /user/logout/all: bumps the token version and ends every session, in one transaction. */
export async function logoutEverywhere(deps: TDeps, userId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await bumpTokenVersion(tx, userId);
    await endAllUserSessions(tx, userId, deps.clock.now());
  });
}
