import { ACCESS_TOKEN_TTL_S, TRIAL_CREDIT_FEN, fenToYuan, type TLang, type TSession, type TUserInfo } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { updatePasswordHash } from '../auth/auth.repository';
import { notifyPasswordChanged } from '../auth/auth.service';
import { checkCode, consumeCheckedCode } from '../auth/codes.service';
import { argon2ParamsOf, hashPassword, verifyPassword } from '../auth/password';
import { createLedgerService } from '../ledger/ledger.service';
import { writeNotification } from '../notifications/notifications.service';
import { uniqueViolationOf } from './unique-violation';
import { findUserByEmail, isUsernameTaken, updateEmail, updateUserStatus, updateUsername, type TUserRow } from './users.repository';

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
export async function changeEmail(deps: TDeps, user: TUserRow, input: { email: string; code: string }): Promise<TUserInfo> {
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
 * one, made by GitHub or Google sign-in, use the reset flow), stores the new
 * one, signs out every other session and answers a new session for the caller.
 */
export async function changePassword(
  deps: TDeps,
  user: TUserRow,
  input: { current_password: string; password: string },
  lang: TLang,
): Promise<TSession> {
  // Guessing the current password with a stolen session is throttled like a sign-in.
  deps.authLimiter.hit(`password:acct:${user.id}`);
  const isMatch = user.passwordHash ? await verifyPassword(user.passwordHash, input.current_password) : false;
  if (!isMatch) throw new AppError('PASSWORD_INCORRECT');
  const passwordHash = await hashPassword(input.password, argon2ParamsOf(deps.config));
  const updated = await updatePasswordHash(deps.db, user.id, passwordHash);
  await notifyPasswordChanged(deps, updated, lang);
  return { token: await deps.jwt.sign(updated.id, updated.tokenVersion), expires_in: ACCESS_TOKEN_TTL_S, is_new_user: false };
}

/** Disables or re-enables an account; disabling ends its sessions at once (token version bumped). */
export async function setUserStatus(deps: TDeps, userId: number, status: TUserRow['status']): Promise<TUserRow> {
  const updated = await updateUserStatus(deps.db, userId, status);
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}
