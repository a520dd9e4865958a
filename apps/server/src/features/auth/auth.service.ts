import { randomBytes, randomInt } from 'node:crypto';
import {
  USERNAME_MAX,
  USERNAME_MIN,
  type TCodePurpose,
  type TLang,
  type TLoginResult,
  type TSignInResult,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { accountKeyOf } from '../../lib/rate-limiter';
import { createLedgerService } from '../ledger/ledger.service';
import { renderPasswordChangedMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import { findUserByEmail, findUserByUsername, isUsernameTaken, type TUserRow } from '../accounts/accounts.repository';
import { findUserByInviteCode, insertUser, isInviteCodeTaken, updatePasswordHash } from './auth.repository';
import { checkCode, consumeCheckedCode, refuseCheckedCode, sendCode } from './codes.service';
import { argon2ParamsOf, hashPassword, verifyDummyPassword, verifyPassword } from './password';
import { endAllUserSessions, hasSessionFromAddress } from './sessions.repository';
import { createSession, type TSignInOrigin } from './sessions.service';
import { guardKeyOf, guardSignIn } from './sign-in-guard.service';
import { hasTotpEnabled, issueTotpChallenge } from './totp.service';

/** Where a request comes from: the rate limiter's address key, the device a session records and the answer language. */
export type TRequestMeta = { ip: string; lang: TLang; userAgent?: string };

/** What a new account needs; the OAuth sign-in passes passwordHash null. */
export type TCreateAccountInput = {
  email: string;
  /** Derived from the e-mail (and made unique) when not given. */
  username?: string;
  passwordHash: string | null;
  /** The inviter's code; INVITE_CODE_INVALID when no account has it. */
  inviteCode?: string;
  /** Operator account (start-up seeding only). */
  isAdmin?: boolean;
  /** The password was shown to someone else (the seeded operator's one-time password): changed at the first sign-in. */
  passwordChangeRequired?: boolean;
};

// C0 controls and DEL: never part of an e-mail address or a username.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const INVITE_CODE_LENGTH = 8;

/** A personal API key: "pk_" and 32 random base64url characters. */
export function generateApiKey(): string {
  return `pk_${randomBytes(24).toString('base64url')}`;
}

function randomInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

async function generateUniqueInviteCode(db: TDbOrTx): Promise<string> {
  // 36^8 codes: a collision is rare, and the unique index guards the last race.
  for (;;) {
    const code = randomInviteCode();
    if (!(await isInviteCodeTaken(db, code))) return code;
  }
}

/** A username from the e-mail's local part (allowed characters only), with digits appended until unique. */
async function deriveUsername(db: TDbOrTx, email: string): Promise<string> {
  let base = email
    .split('@')[0]
    .replace(/[^A-Za-z0-9._-]/g, '')
    .slice(0, USERNAME_MAX - 6);
  if (base.length < USERNAME_MIN) base = 'user';
  if (!(await isUsernameTaken(db, base))) return base;
  for (;;) {
    const candidate = `${base}_${randomInt(10_000, 100_000)}`;
    if (!(await isUsernameTaken(db, candidate))) return candidate;
  }
}

// Unique-index races (two sign-ups at once) become the same errors as the pre-checks.
function mapAccountConflict(error: unknown): unknown {
  const constraint = uniqueViolationOf(error);
  if (constraint === 'users_email_key') return new AppError('EMAIL_TAKEN');
  if (constraint === 'users_username_key') return new AppError('USERNAME_TAKEN');
  return error;
}

/**
 * Creates an account: the user row (api key, own invite code, inviter), its
 * balance row and the welcome notification, in one transaction (the caller's
 * when tx is given). USERNAME_TAKEN / EMAIL_TAKEN / INVITE_CODE_INVALID leave nothing behind.
 */
export async function createAccount(deps: TDeps, input: TCreateAccountInput, tx?: TDbOrTx): Promise<TUserRow> {
  if (!tx) return deps.db.transaction((own) => createAccount(deps, input, own));
  const email = input.email.trim().toLowerCase();
  let invitedBy: number | null = null;
  if (input.inviteCode) {
    const inviter = await findUserByInviteCode(tx, input.inviteCode.trim().toUpperCase());
    // A disabled account's code invites nobody (its share page says so too).
    if (!inviter || inviter.status !== 'active') throw new AppError('INVITE_CODE_INVALID');
    invitedBy = inviter.id;
  }
  let username: string;
  if (input.username !== undefined) {
    username = input.username.trim();
    if (await isUsernameTaken(tx, username)) throw new AppError('USERNAME_TAKEN');
  } else {
    username = await deriveUsername(tx, email);
  }
  let user: TUserRow;
  try {
    user = await insertUser(tx, {
      username,
      email,
      passwordHash: input.passwordHash,
      apiKey: generateApiKey(),
      inviteCode: await generateUniqueInviteCode(tx),
      invitedBy,
      isAdmin: input.isAdmin ?? false,
      passwordChangeRequired: input.passwordChangeRequired ?? false,
      createdAt: deps.clock.now(),
    });
  } catch (error) {
    throw mapAccountConflict(error);
  }
  await createLedgerService(deps).ensureAccount(user.id, tx);
  await writeNotification(deps, user.id, 'welcome', tx);
  return user;
}

/**
 * Every sign-in (password, register, GitHub, Google) ends here: refuses a
 * disabled account; when the account has two-factor on, answers the
 * two-factor step (a challenge for POST /user/login/totp) instead of a
 * session; otherwise starts the session (createSession).
 */
export async function signIn(
  deps: TDeps,
  user: TUserRow,
  origin: TSignInOrigin,
  options: { isNewUser?: boolean } = {},
): Promise<TSignInResult> {
  if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
  if (!options.isNewUser && (await hasTotpEnabled(deps, user.id))) return issueTotpChallenge(deps, user, origin.method);
  return createSession(deps, user, origin, options);
}

/** POST /user/code: rate-limited, then sendCode (same answer whether or not an account exists). */
export async function requestCode(
  deps: TDeps,
  input: { email: string; type: TCodePurpose },
  meta: TRequestMeta,
): Promise<{ resend_after: number }> {
  await deps.authLimiter.hit(`code:ip:${meta.ip}`, `code:acct:${input.email}`);
  return sendCode(deps, { email: input.email, purpose: input.type, lang: meta.lang });
}

/**
 * POST /user/register. The e-mailed code proves the address; the account is
 * active at once. An e-mail that already has an account (its owner got the
 * account-exists e-mail with the code) signs in when the password is the
 * account's: a session of method "password", since it is a password sign-in
 * of an existing account and "register" marks the session that created one
 * (spec section 4). A wrong password answers CODE_INVALID and counts a wrong
 * try of the code, exactly as a wrong code does, so the form tells nothing
 * about the account.
 */
export async function register(
  deps: TDeps,
  input: { username: string; email: string; password: string; code: string; invite_code?: string },
  meta: TRequestMeta,
): Promise<TSignInResult> {
  await deps.authLimiter.hit(`register:ip:${meta.ip}`, `register:acct:${input.email}`);
  const inviteCode = input.invite_code ? input.invite_code : undefined;
  if (deps.config.REGISTRATION_INVITE_REQUIRED && !inviteCode) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'invite_code', message: 'inviteRequired' }]);
  }
  const checked = await checkCode(deps, { email: input.email, purpose: 'register', code: input.code });
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing) {
    const isMatch = existing.passwordHash
      ? await verifyPassword(existing.passwordHash, input.password)
      : await verifyDummyPassword(input.password, argon2ParamsOf(deps.config));
    if (!isMatch) return refuseCheckedCode(deps, checked);
    if (existing.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
    await deps.db.transaction((tx) => consumeCheckedCode(deps, checked, tx));
    return signIn(deps, existing, { method: 'password', ...meta });
  }
  if (await isUsernameTaken(deps.db, input.username)) throw new AppError('USERNAME_TAKEN');
  // Hash before the transaction: it takes tens of milliseconds and needs no lock.
  const passwordHash = await hashPassword(input.password, argon2ParamsOf(deps.config));
  const user = await deps.db.transaction(async (tx) => {
    await consumeCheckedCode(deps, checked, tx);
    return createAccount(deps, { email: input.email, username: input.username, passwordHash, inviteCode }, tx);
  });
  return signIn(deps, user, { method: 'register', ...meta }, { isNewUser: true });
}

/**
 * The account a sign-in names: an e-mail (it has an "@", which usernames
 * cannot) or a username. No account has a control character in its name (and
 * PostgreSQL text cannot hold NUL): such a name is an unknown account.
 */
export async function findAccountByLoginName(deps: Pick<TDeps, 'db'>, name: string): Promise<TUserRow | undefined> {
  const account = name.trim();
  if (CONTROL_CHARACTER.test(account)) return undefined;
  return account.includes('@') ? findUserByEmail(deps.db, account) : findUserByUsername(deps.db, account);
}

/**
 * POST /user/login with an e-mail or a username. Unknown account, account
 * without a password and wrong password all answer INVALID_CREDENTIALS after
 * one argon2 verification (no account enumeration, similar timing).
 * Failures are limited per address and per account+address (429); across
 * addresses, each account has a budget of failures past which a sign-in
 * brings a proof of work before its password is checked (guardSignIn), so
 * nobody's failures can refuse the owner's right password. The account is
 * resolved first, so its e-mail and its username share one count.
 */
export async function login(
  deps: TDeps,
  input: { email: string; password: string; proof?: string; nonce?: string },
  meta: TRequestMeta,
): Promise<TLoginResult> {
  const account = input.email.trim();
  const user = await findAccountByLoginName(deps, account);
  const attempt = await deps.authLimiter.beginSignIn({
    ip: meta.ip,
    account: user ? accountKeyOf(user.id) : `name:${account.toLowerCase()}`,
  });
  const guarded = await guardSignIn(deps, {
    accountKey: guardKeyOf(user, account),
    user,
    isKnownAddress: user ? await hasSessionFromAddress(deps.db, user.id, meta.ip) : false,
    proof: { challenge: input.proof, nonce: input.nonce },
  });
  if ('proof_required' in guarded) {
    await attempt.cancel();
    return guarded;
  }
  const isMatch =
    user && user.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyDummyPassword(input.password, argon2ParamsOf(deps.config));
  if (!user || !isMatch) {
    await guarded.fail();
    throw new AppError('INVALID_CREDENTIALS');
  }
  await Promise.all([attempt.succeed(), guarded.succeed()]);
  if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
  return signIn(deps, user, { method: 'password', ...meta });
}

/** Tells the owner that the password changed (notification and e-mail). */
export async function notifyPasswordChanged(deps: TDeps, user: TUserRow, lang: TLang): Promise<void> {
  await writeNotification(deps, user.id, 'password_changed');
  await sendMailQuietly(
    deps,
    user.email,
    renderPasswordChangedMail(lang, { username: user.username, publicUrl: deps.config.publicUrl }),
  );
}

/**
 * POST /user/reset_password: a new password with an e-mailed code; every
 * session is signed out (token version bumped, sessions ended). An unknown
 * e-mail is CODE_INVALID, like a wrong code.
 */
export async function resetPassword(
  deps: TDeps,
  input: { email: string; code: string; password: string },
  meta: TRequestMeta,
): Promise<void> {
  await deps.authLimiter.hit(`reset:ip:${meta.ip}`, `reset:acct:${input.email}`);
  const checked = await checkCode(deps, { email: input.email, purpose: 'reset', code: input.code });
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) throw new AppError('CODE_INVALID');
  const passwordHash = await hashPassword(input.password, argon2ParamsOf(deps.config));
  const updated = await deps.db.transaction(async (tx) => {
    await consumeCheckedCode(deps, checked, tx);
    const row = await updatePasswordHash(tx, user.id, passwordHash);
    await endAllUserSessions(tx, user.id, deps.clock.now());
    return row;
  });
  await notifyPasswordChanged(deps, updated, meta.lang);
}
