import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { TDbHandle } from '@proxy/db';
import { AppError, isAppError } from './app-error';

/** A node-postgres pool (what RateLimiterPostgres stores its counters through). */
export type TPgPool = NonNullable<TDbHandle['pool']>;

/** Settings of the sign-in limits (RATE_LIMIT_AUTH_MAX and RATE_LIMIT_AUTH_WINDOW_S). */
export type TAuthLimiterOptions = {
  /** Attempts (or failures, on sign-in) allowed per key and window. */
  max: number;
  windowS: number;
  /** Supply requests per account and window (SUPPLY_SUBMIT_MAX, SUPPLY_SUBMIT_WINDOW_S). */
  supply?: { max: number; windowS: number };
  /** PostgreSQL: counters in the shared table, so every API instance sees the same counts. Unset: in process memory (PGlite, one process). */
  pool?: TPgPool;
};

/** The table of the shared counters (in the Drizzle schema and migrations). */
export const RATE_LIMIT_TABLE = 'rate_limits';

// The library's key column is varchar(255): long keys (e-mail addresses) are hashed to fit, and so
// are keys with control characters (a NUL that PostgreSQL text cannot hold).
function storeKey(key: string): string {
  // eslint-disable-next-line no-control-regex
  return key.length <= 200 && !/[\u0000-\u001f\u007f]/.test(key)
    ? key
    : `h:${createHash('sha256').update(key).digest('hex')}`;
}

function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

function createStoreLimiter(
  keyPrefix: string,
  options: Pick<TAuthLimiterOptions, 'max' | 'windowS' | 'pool'>,
  isSweeper: boolean,
): RateLimiterAbstract {
  const memory = () => new RateLimiterMemory({ keyPrefix, points: options.max, duration: options.windowS });
  const { pool } = options;
  if (!pool) return memory();
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: RATE_LIMIT_TABLE,
    // The table comes with the migrations (packages/db, rate_limits).
    tableCreated: true,
    // One limiter per process sweeps expired rows.
    clearExpiredByTimeout: isSweeper,
    keyPrefix,
    points: options.max,
    duration: options.windowS,
    // A database hiccup falls back to this process's own counts rather than failing the request.
    insuranceLimiter: memory(),
  });
}

// Consumes one point on every key; RATE_LIMITED with the longest wait when any is over.
async function consumeAll(limiter: RateLimiterAbstract, keys: string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => limiter.consume(storeKey(key))));
  let waitMs = -1;
  for (const result of results) {
    if (result.status === 'fulfilled') continue;
    if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
    waitMs = Math.max(waitMs, result.reason.msBeforeNext);
  }
  if (waitMs >= 0) throw new AppError('RATE_LIMITED', { seconds: retryAfterSeconds(waitMs) });
}

/** A sign-in attempt that holds one failure point on each of its keys until it is known to have succeeded. */
export type TSignInAttempt = {
  /** The password was right: the held points are given back. */
  succeed(): Promise<void>;
  /** No password was checked (a proof of work was asked for first): every held point is given back. */
  cancel(): Promise<void>;
};

/**
 * Rate limits of the sign-in calls (ARCHITECTURE.md, Security), on
 * rate-limiter-flexible: counters in PostgreSQL when the API runs on it (so
 * a limit reached on one instance holds on all), in memory on PGlite.
 *
 * - `hit`: attempts per key and window (codes, registration, reset, OAuth,
 *   password change): every call counts.
 * - `beginSignIn` / `recordSignIn`: sign-in steps, after rate-limiter-flexible's
 *   login endpoint protection: failures count per address and per
 *   account+address (consecutive: any successful sign-in of the account from
 *   the address clears them). The password step counts nothing per account
 *   across addresses here: that budget (auth's sign-in guard, in the
 *   database) asks a proof of work instead of refusing, so failures elsewhere
 *   never lock the owner out. The two-factor step (reached only with the
 *   password) says whether the address is known (`isKnownAddress`): from an
 *   unknown one its failures also count per account.
 * - `hitSupply`: supply requests per account (SUPPLY_SUBMIT_MAX per SUPPLY_SUBMIT_WINDOW_S).
 */
export async function createAuthLimiter(options: TAuthLimiterOptions) {
  // The first limiter creates the shared table; the second finds it.
  const attempts = createStoreLimiter('auth', options, true);
  const failures = createStoreLimiter('signin-fail', options, false);
  const supply = createStoreLimiter(
    'supply',
    { ...(options.supply ?? { max: options.max, windowS: options.windowS }), pool: options.pool },
    false,
  );
  return {
    /** Counts one attempt on every key (e.g. "code:ip:1.2.3.4"); RATE_LIMITED (with the seconds to wait) when any is over the limit. */
    async hit(...keys: (string | undefined | null)[]): Promise<void> {
      await consumeAll(
        attempts,
        keys.filter((k): k is string => Boolean(k)),
      );
    },

    /**
     * Holds one failure point per key before the password is checked (so
     * parallel guesses cannot all slip under the limit); RATE_LIMITED when
     * any key is already over it. `account` is the account's stable key
     * (its user id, or the name tried when no account has it);
     * `isKnownAddress: false` counts the account across addresses too.
     */
    async beginSignIn(input: { ip: string; account: string; isKnownAddress?: boolean }): Promise<TSignInAttempt> {
      const shared = [`ip:${input.ip}`, ...(input.isKnownAddress === false ? [`acct:${input.account}`] : [])];
      const held = [...shared, `acct-ip:${input.account}:${input.ip}`];
      await consumeAll(failures, held);
      return {
        async succeed() {
          await Promise.all(shared.map((key) => failures.reward(storeKey(key), 1)));
        },
        async cancel() {
          await Promise.all(held.map((key) => failures.reward(storeKey(key), 1)));
        },
      };
    },

    /** Counts one supply request of the account; RATE_LIMITED (with the seconds to wait) past SUPPLY_SUBMIT_MAX. */
    async hitSupply(userId: number): Promise<void> {
      await consumeAll(supply, [`acct:${accountKeyOf(userId)}`]);
    },

    /** A session started for the account from the address (any sign-in method): its consecutive failures there are forgotten. */
    async recordSignIn(account: string, ip: string): Promise<void> {
      await failures.delete(storeKey(`acct-ip:${account}:${ip}`));
    },
  };
}

/** The limiter type. */
export type TAuthLimiter = Awaited<ReturnType<typeof createAuthLimiter>>;

/** The limiter's account key of a user (sign-in attempts are counted per account, however it was named). */
export function accountKeyOf(userId: number): string {
  return `u${userId}`;
}

/**
 * Runs a handler; a RATE_LIMITED failure gets the Retry-After header
 * (seconds) before the error handler writes the envelope.
 */
export async function withRetryAfter<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error, 'RATE_LIMITED') && typeof error.params?.seconds === 'number') {
      reply.header('retry-after', String(error.params.seconds));
    }
    throw error;
  }
}
