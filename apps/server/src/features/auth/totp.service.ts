import { createHash, randomInt } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { generateSecret, generateURI, verify } from 'otplib';
import {
  SIGN_IN_METHODS,
  TOTP_CHALLENGE_TTL_S,
  TOTP_RECOVERY_CODE_COUNT,
  type TSession,
  type TSignInMethod,
  type TTotpChallenge,
  type TTotpRecoveryCodes,
  type TTotpSetup,
  type TTotpStatus,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { accountKeyOf } from '../../lib/rate-limiter';
import { secretBoxOf } from '@proxy/db';
import { readSetting } from '../../lib/system-settings.repository';
import { findUserById, type TUserRow } from '../accounts/accounts.repository';
import { endOtherUserSessions, hasSessionFromAddress } from './sessions.repository';
import type { TSignInOrigin } from './sessions.service';
import {
  claimTotpStep,
  countUnusedRecoveryCodes,
  countUsedRecoveryCodes,
  deleteTotp,
  findTotp,
  markTotpEnabled,
  replaceRecoveryCodes,
  lockTotpAtStep,
  resealTotpSecret,
  upsertPendingTotp,
  useRecoveryCode,
  type TTotpRow,
} from './totp.repository';

/**
 * Two-factor sign-in (TOTP, RFC 6238, with otplib): enrolment in the user
 * centre, the sign-in step (a signed, short-lived challenge answered with a
 * code) and single-use recovery codes stored as hashes.
 */

/** The last accepted step of an account that has accepted none (in a challenge and in SQL's coalesce). */
const NO_STEP = -1;
/** TOTP time step in seconds (authenticator apps' default). */
const PERIOD_S = 30;
/** Clock drift accepted: the codes of the previous and next step are valid too. */
const EPOCH_TOLERANCE_S = 30;
const CHALLENGE_AUDIENCE = 'proxy-console-totp';
const CHALLENGE_ISSUER = 'proxy-console-api';
// No 0/o, 1/l/i: recovery codes are read off paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function epochSeconds(deps: TDeps): number {
  return Math.floor(deps.clock.now().getTime() / 1000);
}

function challengeKey(deps: TDeps): Uint8Array {
  // The access tokens' secret, under another audience: a challenge is never an access token (no session id) and the reverse.
  return new TextEncoder().encode(deps.config.jwtSecret);
}

/** The issuer shown by authenticator apps: this installation's host name. */
function issuerOf(deps: TDeps): string {
  try {
    return new URL(deps.config.publicUrl).host || 'Proxy Console';
  } catch {
    return 'Proxy Console';
  }
}

/** A new recovery code, "xxxxx-xxxxx". */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The stored form of a recovery code (dash, spaces and case do not matter). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(code.replace(/[\s-]+/g, '').toLowerCase())
    .digest('hex');
}

async function issueRecoveryCodes(deps: TDeps, userId: number): Promise<TTotpRecoveryCodes> {
  const codes = Array.from({ length: TOTP_RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(deps.db, userId, codes.map(hashRecoveryCode), deps.clock.now());
  return { recovery_codes: codes };
}

/** What the secret column is sealed for (the additional data of AES-GCM). */
export const TOTP_SECRET_PURPOSE = 'user_totp.secret';

/**
 * The row's secret in clear (stored sealed with DATA_ENCRYPTION_KEY). A
 * secret stored before encryption still works and is sealed now, on this
 * read. A key that cannot open it throws SecretBoxError (the sign-in fails
 * with a 500 and the log names DATA_ENCRYPTION_KEY).
 */
async function totpSecretOf(deps: TDeps, row: TTotpRow): Promise<string> {
  const box = secretBoxOf(deps.config);
  const { plain, isSealed } = box.open(row.secret, TOTP_SECRET_PURPOSE);
  if (!isSealed) await resealTotpSecret(deps.db, row.userId, row.secret, box.seal(plain, TOTP_SECRET_PURPOSE));
  return plain;
}

/**
 * Accepts a current authenticator code once: the code of a time step
 * already used (or older than the last one used) is refused, also between
 * two parallel requests (the step is claimed in one conditional update).
 */
async function acceptTotpCode(deps: TDeps, row: TTotpRow, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const epoch = epochSeconds(deps);
  const result = await verify({
    secret: await totpSecretOf(deps, row),
    token: code,
    epoch,
    period: PERIOD_S,
    epochTolerance: EPOCH_TOLERANCE_S,
    afterTimeStep: row.lastUsedStep ?? undefined,
  });
  if (!result.valid) return false;
  // The matched step: the current one plus the drift otplib reports.
  return claimTotpStep(deps.db, row.userId, Math.floor(epoch / PERIOD_S) + result.delta);
}

/** A current code, or else an unused recovery code (spent by this call). */
async function acceptCodeOrRecovery(deps: TDeps, row: TTotpRow, code: string): Promise<boolean> {
  if (/^\d{6}$/.test(code)) return acceptTotpCode(deps, row, code);
  return useRecoveryCode(deps.db, row.userId, hashRecoveryCode(code), deps.clock.now());
}

async function requireEnabled(deps: TDeps, userId: number): Promise<TTotpRow> {
  const row = await findTotp(deps.db, userId);
  if (!row?.enabledAt) throw new AppError('TOTP_NOT_ENABLED');
  return row;
}

/** The system setting by which operators must have two-factor sign-in on to use the operator area (off by default). */
export const ADMIN_TOTP_REQUIRED = 'admin_totp_required';

/** True when the operator area requires two-factor sign-in. */
export async function isAdminTotpRequired(deps: TDeps): Promise<boolean> {
  return (await readSetting(deps.db, ADMIN_TOTP_REQUIRED)) === true;
}

/** True when the account has two-factor on (its sign-ins stop at the code step). */
export async function hasTotpEnabled(deps: TDeps, userId: number): Promise<boolean> {
  const row = await findTotp(deps.db, userId);
  return Boolean(row?.enabledAt);
}

/** GET /user/totp. */
export async function getTotpStatus(deps: TDeps, user: TUserRow): Promise<TTotpStatus> {
  const row = await findTotp(deps.db, user.id);
  const isEnabled = Boolean(row?.enabledAt);
  return {
    enabled: isEnabled,
    enabled_at: row?.enabledAt ? row.enabledAt.toISOString() : null,
    recovery_codes_left: isEnabled ? await countUnusedRecoveryCodes(deps.db, user.id) : 0,
    admin_required: user.isAdmin && (await isAdminTotpRequired(deps)),
  };
}

/** POST /user/totp/setup: a new secret while two-factor is off (starting again replaces the last one). */
export async function startTotpSetup(deps: TDeps, user: TUserRow): Promise<TTotpSetup> {
  const secret = generateSecret();
  const sealed = secretBoxOf(deps.config).seal(secret, TOTP_SECRET_PURPOSE);
  if (!(await upsertPendingTotp(deps.db, user.id, sealed, deps.clock.now())))
    throw new AppError('TOTP_ALREADY_ENABLED');
  return { secret, otpauth_url: generateURI({ issuer: issuerOf(deps), label: user.email, secret, period: PERIOD_S }) };
}

/**
 * POST /user/totp/enable: confirms enrolment with a current code; answers the
 * recovery codes (shown once). Every other session of the account ends (as a
 * password change ends them): a session opened before two-factor was on never
 * passed it. The session that turned it on goes on.
 */
export async function enableTotp(
  deps: TDeps,
  user: TUserRow,
  code: string,
  currentSessionId: number,
): Promise<TTotpRecoveryCodes> {
  await deps.authLimiter.hit(`totp:acct:${user.id}`);
  const row = await findTotp(deps.db, user.id);
  if (!row) throw new AppError('TOTP_SETUP_REQUIRED');
  if (row.enabledAt) throw new AppError('TOTP_ALREADY_ENABLED');
  if (!(await acceptTotpCode(deps, row, code))) throw new AppError('TOTP_INVALID_CODE');
  const codes = Array.from({ length: TOTP_RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await markTotpEnabled(tx, user.id, now);
    await replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode), now);
    await endOtherUserSessions(tx, user.id, currentSessionId, now);
  });
  return { recovery_codes: codes };
}

/** POST /user/totp/disable: with a current code or a recovery code; removes the secret and the recovery codes. */
export async function disableTotp(deps: TDeps, user: TUserRow, code: string): Promise<void> {
  await deps.authLimiter.hit(`totp:acct:${user.id}`);
  const row = await requireEnabled(deps, user.id);
  if (!(await acceptCodeOrRecovery(deps, row, code))) throw new AppError('TOTP_INVALID_CODE');
  await deps.db.transaction((tx) => deleteTotp(tx, user.id));
}

/** POST /user/totp/recovery_codes: new codes with a current code (the old ones stop working). */
export async function regenerateRecoveryCodes(deps: TDeps, user: TUserRow, code: string): Promise<TTotpRecoveryCodes> {
  await deps.authLimiter.hit(`totp:acct:${user.id}`);
  const row = await requireEnabled(deps, user.id);
  if (!(await acceptTotpCode(deps, row, code))) throw new AppError('TOTP_INVALID_CODE');
  return issueRecoveryCodes(deps, user.id);
}

/**
 * The two-factor step of a sign-in: a signed challenge naming the account,
 * the sign-in method and the account's token version (signing out
 * everywhere or a password change voids it), valid TOTP_CHALLENGE_TTL_S.
 */
export async function issueTotpChallenge(deps: TDeps, user: TUserRow, method: TSignInMethod): Promise<TTotpChallenge> {
  const iat = epochSeconds(deps);
  // The account's last accepted step now,
  // and the recovery codes used: the challenge's first success moves one of them, which spends the challenge.
  const step = (await findTotp(deps.db, user.id))?.lastUsedStep ?? NO_STEP;
  const used = await countUsedRecoveryCodes(deps.db, user.id);
  const challenge = await new SignJWT({ ver: user.tokenVersion, mth: method, stp: step, rcu: used })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuer(CHALLENGE_ISSUER)
    .setAudience(CHALLENGE_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOTP_CHALLENGE_TTL_S)
    .sign(challengeKey(deps));
  return { totp_required: true, challenge, expires_in: TOTP_CHALLENGE_TTL_S };
}

async function readChallenge(
  deps: TDeps,
  challenge: string,
): Promise<
  { userId: number; tokenVersion: number; method: TSignInMethod; step: number; usedRecoveryCodes: number } | undefined
> {
  try {
    const { payload } = await jwtVerify(challenge, challengeKey(deps), {
      issuer: CHALLENGE_ISSUER,
      audience: CHALLENGE_AUDIENCE,
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
      currentDate: deps.clock.now(),
    });
    const userId = Number(payload.sub);
    const method = SIGN_IN_METHODS.find((m) => m === payload.mth);
    const { stp: step, rcu: usedRecoveryCodes } = payload;
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.ver !== 'number' || !method) return undefined;
    if (typeof step !== 'number' || !Number.isSafeInteger(step)) return undefined;
    if (typeof usedRecoveryCodes !== 'number' || !Number.isSafeInteger(usedRecoveryCodes)) return undefined;
    return { userId, tokenVersion: payload.ver, method, step, usedRecoveryCodes };
  } catch {
    return undefined;
  }
}

/**
 * POST /user/login/totp: the challenge of a sign-in and a current code (or a
 * recovery code) start the session. Wrong codes count as failed sign-ins of
 * the account (the login limits). TOTP_CHALLENGE_EXPIRED for a challenge
 * that is forged, expired, or whose account changed (token version, disabled,
 * two-factor turned off).
 */
export async function finishTotpSignIn(
  deps: TDeps,
  input: { challenge: string; code: string },
  origin: Omit<TSignInOrigin, 'method'>,
  startSession: (user: TUserRow, origin: TSignInOrigin) => Promise<TSession>,
): Promise<TSession> {
  const claims = await readChallenge(deps, input.challenge);
  if (!claims) throw new AppError('TOTP_CHALLENGE_EXPIRED');
  const user = await findUserById(deps.db, claims.userId);
  if (!user || user.tokenVersion !== claims.tokenVersion) throw new AppError('TOTP_CHALLENGE_EXPIRED');
  const attempt = await deps.authLimiter.beginSignIn({
    ip: origin.ip,
    account: accountKeyOf(user.id),
    isKnownAddress: await hasSessionFromAddress(deps.db, user.id, origin.ip),
  });
  const row = await findTotp(deps.db, user.id);
  if (!row?.enabledAt) throw new AppError('TOTP_CHALLENGE_EXPIRED');
  await spendChallenge(deps, row, claims, input.code);
  await attempt.succeed();
  return startSession(user, { ...origin, method: claims.method });
}

/**
 * Checks the code of a sign-in challenge and spends the challenge, in one
 * transaction that locks the account's two-factor row while the account is
 * as the challenge saw it (same last accepted step, same recovery codes
 * used): a current code moves the step, a recovery code is marked used. So a
 * challenge succeeds once, also between parallel requests: the second finds
 * the account moved on, TOTP_CHALLENGE_EXPIRED. A wrong code is
 * TOTP_INVALID_CODE and leaves the challenge usable.
 */
async function spendChallenge(
  deps: TDeps,
  row: TTotpRow,
  challenge: { step: number; usedRecoveryCodes: number },
  code: string,
): Promise<void> {
  const isTotp = /^\d{6}$/.test(code);
  // Read (and sealed, if it was stored plain) before the row is locked.
  const secret = isTotp ? await totpSecretOf(deps, row) : '';
  await deps.db.transaction(async (tx) => {
    const locked = await lockTotpAtStep(tx, row.userId, challenge.step);
    if (!locked?.enabledAt || (await countUsedRecoveryCodes(tx, row.userId)) !== challenge.usedRecoveryCodes)
      throw new AppError('TOTP_CHALLENGE_EXPIRED');
    if (!isTotp) {
      if (!(await useRecoveryCode(tx, row.userId, hashRecoveryCode(code), deps.clock.now())))
        throw new AppError('TOTP_INVALID_CODE');
      return;
    }
    const epoch = epochSeconds(deps);
    const result = await verify({
      secret,
      token: code,
      epoch,
      period: PERIOD_S,
      epochTolerance: EPOCH_TOLERANCE_S,
      afterTimeStep: locked.lastUsedStep ?? undefined,
    });
    if (!result.valid || !(await claimTotpStep(tx, row.userId, Math.floor(epoch / PERIOD_S) + result.delta)))
      throw new AppError('TOTP_INVALID_CODE');
  });
}
