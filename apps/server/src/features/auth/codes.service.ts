import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_LENGTH,
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_MS,
  CODE_TTL_MS,
  type TCodePurpose,
  type TLang,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { renderAccountExistsMail, renderCodeMail } from '../mail/mail-templates';
import { findUserByEmail } from '../accounts/accounts.repository';
import {
  consumeCodeOnce,
  deleteCode,
  findLatestCode,
  findLatestCodeForEmail,
  incrementCodeAttempts,
  insertCode,
  lockCodeAddress,
} from './codes.repository';

/** A code that passed the check but is not used yet (see consumeCheckedCode). */
export type TCheckedCode = { id: number };

/** Hash of a code as stored: HMAC-SHA256 keyed by the JWT secret, bound to the address and purpose. */
export function hashCode(secret: string, email: string, purpose: TCodePurpose, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${email}:${code}`).digest('hex');
}

/** A fresh code from the cryptographic RNG: exactly 6 digits. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

/** What an address gets for a code request: a code, the account-exists notice (with a code), or nothing. */
type TDelivery = 'code' | 'account-exists' | 'none';

// What the address should really get. Answers are the same either way (no account enumeration).
async function deliveryOf(
  db: TDbOrTx,
  email: string,
  purpose: TCodePurpose,
): Promise<{ delivery: TDelivery; username?: string }> {
  const account = await findUserByEmail(db, email);
  if (purpose === 'reset') return { delivery: account ? 'code' : 'none' };
  if (!account) return { delivery: 'code' };
  // Registering an address that has an account: its owner hears so, with a code that signs in with the right password (spec section 4).
  return purpose === 'register' ? { delivery: 'account-exists', username: account.username } : { delivery: 'none' };
}

/**
 * E-mails a code for register, reset or change_email. At most one send per
 * address per CODE_RESEND_MS (CODE_TOO_FREQUENT with the seconds left).
 * A register code for an address that has an account goes out as the
 * account-exists e-mail (sign in, reset, or register with the account's
 * password to sign in). When the address should get nothing (change_email
 * for a used address, reset for an unknown one) nothing is sent, but an
 * unusable code row is stored so the answer and the throttle behave exactly
 * the same.
 */
export async function sendCode(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'mailer' | 'log'>,
  input: { email: string; purpose: TCodePurpose; lang: TLang },
): Promise<{ resend_after: number }> {
  const now = deps.clock.now();
  const code = generateCode();
  const { row, delivery, username } = await deps.db.transaction(async (tx) => {
    await lockCodeAddress(tx, input.email);
    const previous = await findLatestCodeForEmail(tx, input.email);
    if (previous) {
      const waitMs = previous.createdAt.getTime() + CODE_RESEND_MS - now.getTime();
      if (waitMs > 0) throw new AppError('CODE_TOO_FREQUENT', { seconds: Math.ceil(waitMs / 1000) });
    }
    const target = await deliveryOf(tx, input.email, input.purpose);
    const inserted = await insertCode(tx, {
      email: input.email,
      purpose: input.purpose,
      // "unsent:" never equals a hex HMAC, so a silent row can never be used.
      codeHash:
        target.delivery !== 'none'
          ? hashCode(deps.config.jwtSecret, input.email, input.purpose, code)
          : `unsent:${randomBytes(16).toString('hex')}`,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      createdAt: now,
    });
    return { row: inserted, ...target };
  });
  // The e-mail goes out after the commit: no transaction waits on the mail server.
  if (delivery !== 'none') {
    const minutes = CODE_TTL_MS / 60_000;
    const content =
      delivery === 'account-exists'
        ? renderAccountExistsMail(input.lang, {
            code,
            minutes,
            username: username ?? '',
            publicUrl: deps.config.publicUrl,
          })
        : renderCodeMail(input.lang, { code, purpose: input.purpose, minutes });
    try {
      await deps.mailer.send({ to: input.email, ...content });
    } catch (error) {
      deps.log.error({ err: error, purpose: input.purpose }, 'verification e-mail failed');
      await deleteCode(deps.db, row.id);
      throw new AppError('MAIL_SEND_FAILED');
    }
  }
  return { resend_after: CODE_RESEND_MS / 1000 };
}

/**
 * Checks a code without using it: the latest code of the address and purpose,
 * unused, unexpired, under CODE_MAX_ATTEMPTS wrong tries. A wrong code counts
 * a try (committed even when the caller's operation fails). CODE_INVALID
 * otherwise, the same answer whatever the reason.
 */
export async function checkCode(
  deps: Pick<TDeps, 'db' | 'clock' | 'config'>,
  input: { email: string; purpose: TCodePurpose; code: string },
): Promise<TCheckedCode> {
  const now = deps.clock.now();
  const row = await findLatestCode(deps.db, input.email, input.purpose);
  if (!row || row.consumedAt || row.expiresAt.getTime() <= now.getTime() || row.attempts >= CODE_MAX_ATTEMPTS) {
    throw new AppError('CODE_INVALID');
  }
  const expected = Buffer.from(row.codeHash);
  const given = Buffer.from(hashCode(deps.config.jwtSecret, input.email, input.purpose, input.code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await incrementCodeAttempts(deps.db, row.id);
    throw new AppError('CODE_INVALID');
  }
  return { id: row.id };
}

/**
 * Refuses an operation with a code that was right but whose other proof
 * failed (registering an existing e-mail with a wrong password): counts a
 * wrong try and throws CODE_INVALID, exactly as a wrong code does.
 */
export async function refuseCheckedCode(deps: Pick<TDeps, 'db'>, checked: TCheckedCode): Promise<never> {
  await incrementCodeAttempts(deps.db, checked.id);
  throw new AppError('CODE_INVALID');
}

/** Uses a checked code once, inside the caller's transaction; CODE_INVALID when a concurrent use won. */
export async function consumeCheckedCode(
  deps: Pick<TDeps, 'clock'>,
  checked: TCheckedCode,
  tx: TDbOrTx,
): Promise<void> {
  const isConsumed = await consumeCodeOnce(tx, checked.id, deps.clock.now(), CODE_MAX_ATTEMPTS);
  if (!isConsumed) throw new AppError('CODE_INVALID');
}
