import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { leadingZeroBits, proofInput, type TProofChallenge } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { renderSignInAlertMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import type { TUserRow } from '../accounts/accounts.repository';
import {
  claimSignInAlert,
  countSignInAttempt,
  spendSignInProof,
  uncountSignInAttempt,
} from './sign-in-guard.repository';

/**
 * The per-account budget of password sign-ins, across every address and every
 * API instance (table sign_in_guards):
 *
 * - every attempt is counted before its password is checked (one statement);
 *   a right password takes its count back, so the count is the failures of
 *   the window (RATE_LIMIT_AUTH_MAX per SIGN_IN_ACCOUNT_WINDOW_S) plus the
 *   attempts in flight;
 * - past the budget, an attempt without a proof of work is answered a
 *   challenge before any password is checked: the answer is the same for a
 *   right and a wrong password, and nobody is refused. A proof is a nonce
 *   whose SHA-256 with the challenge starts with SIGN_IN_PROOF_BITS zero bits,
 *   one more bit (twice the work) each time the failures double, at most six
 *   more. A challenge is signed (HMAC), bound to the account, valid 5 minutes
 *   and spent by its first use (table sign_in_proofs), so each guess past the
 *   budget costs its own work;
 * - an address the account signed in from before brings no proof;
 * - the failure that reaches the budget e-mails the owner once per window.
 *
 * Per-address limits (rate-limiter.ts) still apply as before, and the e-mailed
 * sign-in link (sign-in-link.service.ts) passes every throttle.
 */

const PROOF_TTL_S = 300;
const MAX_EXTRA_BITS = 6;

/** The guard's key of an account: "u<id>", or a hash of the name tried when no account has it (the same answers either way). */
export function guardKeyOf(user: TUserRow | undefined, name: string): string {
  if (user) return `u${user.id}`;
  return `n:${createHash('sha256').update(name.toLowerCase()).digest('hex')}`;
}

/** Zero bits a sign-in must prove when it is the count-th attempt of the window; 0 within the budget. */
export function requiredProofBits(deps: Pick<TDeps, 'config'>, count: number): number {
  const budget = deps.config.RATE_LIMIT_AUTH_MAX;
  if (count <= budget) return 0;
  const extra = Math.min(MAX_EXTRA_BITS, Math.max(0, Math.floor(Math.log2((count - 1) / budget))));
  return deps.config.SIGN_IN_PROOF_BITS + extra;
}

function macOf(deps: Pick<TDeps, 'config'>, payload: string, accountKey: string): string {
  // The access tokens' secret under its own label: a challenge is never anything else.
  return createHmac('sha256', `sign-in-proof:${deps.config.jwtSecret}`)
    .update(`${payload}.${accountKey}`)
    .digest('base64url');
}

function issueChallenge(deps: Pick<TDeps, 'config' | 'clock'>, accountKey: string, bits: number): TProofChallenge {
  const expiresAtMs = deps.clock.now().getTime() + PROOF_TTL_S * 1000;
  const payload = `${randomBytes(12).toString('base64url')}.${expiresAtMs}.${bits}`;
  return {
    proof_required: true,
    challenge: `${payload}.${macOf(deps, payload, accountKey)}`,
    bits,
    expires_in: PROOF_TTL_S,
  };
}

/** True when the proof answers a live challenge of this account of at least `bits`, spent now for the first time. */
async function isProofGood(
  deps: Pick<TDeps, 'config' | 'clock' | 'db'>,
  accountKey: string,
  bits: number,
  proof: { challenge?: string; nonce?: string },
): Promise<boolean> {
  if (!proof.challenge || !proof.nonce) return false;
  const parts = proof.challenge.split('.');
  if (parts.length !== 4) return false;
  const [id, expires, ofBits, mac] = parts;
  const expected = Buffer.from(macOf(deps, `${id}.${expires}.${ofBits}`, accountKey));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const now = deps.clock.now();
  const expiresAtMs = Number(expires);
  if (!(expiresAtMs > now.getTime()) || !(Number(ofBits) >= bits)) return false;
  const digest = createHash('sha256').update(proofInput(proof.challenge, proof.nonce)).digest();
  if (leadingZeroBits(digest) < Number(ofBits)) return false;
  return spendSignInProof(deps.db, id, new Date(expiresAtMs), now);
}

/** An attempt counted in the account's budget: the password check's outcome settles it. */
export type TGuardedAttempt = {
  /** The password was right: the attempt no longer counts. */
  succeed(): Promise<void>;
  /** The password was wrong: the failure stays counted; the one reaching the budget alerts the owner. */
  fail(): Promise<void>;
};

/**
 * Counts a password sign-in in its account's budget; answers the proof-of-work
 * challenge to send back (nothing counted) when the budget is spent and no
 * good proof came, else the counted attempt.
 */
export async function guardSignIn(
  deps: Pick<TDeps, 'config' | 'clock' | 'db' | 'mailer' | 'log'>,
  input: {
    accountKey: string;
    user: TUserRow | undefined;
    isKnownAddress: boolean;
    proof: { challenge?: string; nonce?: string };
  },
): Promise<TProofChallenge | TGuardedAttempt> {
  const windowMs = deps.config.SIGN_IN_ACCOUNT_WINDOW_S * 1000;
  const count = await countSignInAttempt(deps.db, input.accountKey, deps.clock.now(), windowMs);
  const bits = input.isKnownAddress ? 0 : requiredProofBits(deps, count);
  if (bits > 0 && !(await isProofGood(deps, input.accountKey, bits, input.proof))) {
    await uncountSignInAttempt(deps.db, input.accountKey);
    return issueChallenge(deps, input.accountKey, bits);
  }
  return {
    async succeed() {
      await uncountSignInAttempt(deps.db, input.accountKey);
    },
    async fail() {
      const { user } = input;
      if (!user || count < deps.config.RATE_LIMIT_AUTH_MAX) return;
      if (!(await claimSignInAlert(deps.db, input.accountKey, deps.clock.now()))) return;
      await sendMailQuietly(
        deps,
        user.email,
        renderSignInAlertMail({ username: user.username, failures: count, publicUrl: deps.config.publicUrl }),
      );
    },
  };
}
