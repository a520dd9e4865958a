import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { touchUserTokens } from '../proxies/proxies.repository';
import { TRIAL_CREDIT_FEN, fenToYuan, type TSession, type TUserInfo } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { updatePasswordHash } from '../auth/auth.repository';
import { notifyPasswordChanged, type TRequestMeta } from '../auth/auth.service';
import { checkCode, consumeCheckedCode } from '../auth/codes.service';
import { argon2ParamsOf, hashPassword, verifyPassword } from '../auth/password';
import { endAllUserSessions } from '../auth/sessions.repository';
import { createSession } from '../auth/sessions.service';
import { createLedgerService } from '../ledger/ledger.service';
import { writeNotification } from '../notifications/notifications.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import { findUserByEmail, isUsernameTaken, type TUserRow } from '../accounts/accounts.repository';
import { updateEmail, updateUserStatus, updateUsername } from './users.repository';

/**
 * GET /user/info. Money in yuan from integer fen: balance is available,
 * total_balance the cumulative real recharge (no trial, no rebates), token the
 * personal API key (never the session JWT).
 */
export async function getUserInfo(deps: TDeps, user: TUserRow): Promise<TUserInfo> {
  const balance = await createLedgerService(deps).getBalance(user.id);
  return {
    user_id: user.id,
    name: user.username,
    balance: fenToYuan(balance.availableFen),
    frozen_balance: fenToYuan(balance.frozenFen),
    status: user.status,
    total_balance: fenToYuan(user.totalRechargeFen),
    email: user.email,
    token: user.apiKey,
    avatar: user.avatar,
    invite_code: user.inviteCode,
    trial_credit: user.trialGrantedAt ? fenToYuan(TRIAL_CREDIT_FEN) : 0,
    is_admin: user.isAdmin,
    password_change_required: user.passwordChangeRequired,
    created_at: user.createdAt.toISOString(),
  };
}

/** PUT /user/profile: a new username, unique ignoring case (changing only its case is allowed). */
export async function updateProfile(deps: TDeps, user: TUserRow, input: { username: string }): Promise<TUserInfo> {
  if (await isUsernameTaken(deps.db, input.username, user.id)) throw new AppError('USERNAME_TAKEN');
  let updated: TUserRow;
  try {
    updated = await updateUsername(deps.db, user.id, input.username);
  } catch (error) {
    if (uniqueViolationOf(error) === 'users_username_key') throw new AppError('USERNAME_TAKEN');
    throw error;
  }
  return getUserInfo(deps, updated);
}

/**
 * POST /user/change_email: the new address proves itself with a code sent
 * to it (/user/code type change_email). Same address: EMAIL_UNCHANGED; an
 * address of another account: EMAIL_TAKEN.
 */
export async function changeEmail(
  deps: TDeps,
  user: TUserRow,
  input: { email: string; code: string },
): Promise<TUserInfo> {
  if (input.email === user.email) throw new AppError('EMAIL_UNCHANGED');
  if (await findUserByEmail(deps.db, input.email)) throw new AppError('EMAIL_TAKEN');
  const checked = await checkCode(deps, { email: input.email, purpose: 'change_email', code: input.code });
  let updated: TUserRow;
  try {
    updated = await deps.db.transaction(async (tx) => {
      await consumeCheckedCode(deps, checked, tx);
      const row = await updateEmail(tx, user.id, input.email);
      await writeNotification(deps, user.id, 'email_changed', tx);
      return row;
    });
  } catch (error) {
    if (uniqueViolationOf(error) === 'users_email_key') throw new AppError('EMAIL_TAKEN');
    throw error;
  }
  return getUserInfo(deps, updated);
}

/**
 * POST /user/change_password: checks the current password (accounts without
 * one, made by GitHub or Google sign-in, use the reset flow), refuses a new
 * password equal to it, stores the new
 * one and ends every session (token version bumped) in one transaction, then
 * answers a new session (method "password") for the caller.
 */
export async function changePassword(
  deps: TDeps,
  user: TUserRow,
  input: { current_password: string; password: string },
  meta: TRequestMeta,
): Promise<TSession> {
  // Guessing the current password with a stolen session is throttled like a sign-in.
  await deps.authLimiter.hit(`password:acct:${user.id}`);
  const isMatch = user.passwordHash ? await verifyPassword(user.passwordHash, input.current_password) : false;
  if (!isMatch) throw new AppError('PASSWORD_INCORRECT');
  if (input.password === input.current_password) throw new AppError('PASSWORD_UNCHANGED');
  const passwordHash = await hashPassword(input.password, argon2ParamsOf(deps.config));
  const updated = await deps.db.transaction(async (tx) => {
    const row = await updatePasswordHash(tx, user.id, passwordHash);
    await endAllUserSessions(tx, user.id, deps.clock.now());
    return row;
  });
  await notifyPasswordChanged(deps, updated, meta.lang);
  return createSession(deps, updated, { method: 'password', ...meta });
}

/** Disables or re-enables an account; disabling ends its sessions at once (token version bumped, sessions ended). */
export async function setUserStatus(deps: TDeps, userId: number, status: TUserRow['status']): Promise<TUserRow> {
  // The account's proxies follow it: the gateways reload its tokens (and refuse them while it is disabled).
  const updated = await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await updateUserStatus(tx, userId, status);
      if (!row) return row;
      if (status === 'disabled') await endAllUserSessions(tx, userId, deps.clock.now());
      await touchUserTokens(tx, userId);
      await bumpGatewayVersion(tx);
      return row;
    }),
  );
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}
