import { AsyncLocalStorage } from 'node:async_hooks';
import { USER_ROWS_CHANNEL, openChangeFeed, type TChangeFeed, type TDbHandle } from '@proxy/db';
import type { TClock } from './clock';

/**
 * Answers and sessions kept in memory per account, exact because the database
 * says when they change.
 *
 * Every committed change of a row such an answer is made from NOTIFYs
 * USER_ROWS_CHANNEL with the owner's id (triggers, migration 0027), whoever
 * made it: this process, another API instance, a job, a gateway, an operator,
 * or SQL by hand. The notification drops everything kept for that account.
 *
 * - Before anything is taken from memory, the feed must have caught up with
 *   every change committed before the request: on PostgreSQL, after this
 *   process's pool has seen a query answered, one round trip on the listening
 *   connection (shared by all requests waiting meanwhile); on PGlite the
 *   notification arrives before the changing statement returns.
 * - While the listening connection is down nothing is taken from memory, and
 *   everything is dropped when it is back.
 * - An answer computed while its account changed is not kept (generation).
 * - An answer that read the clock is not kept, unless its service said until
 *   when it holds (`answerHoldsUntil`).
 *
 * Other instances see a change once its notification arrives (the time of one
 * NOTIFY on the network); this process sees its own changes at once.
 */

/** A session as authenticate needs it (see resumeSession). */
export type TCachedSession<TUser, TSession> = { user: TUser; session: TSession };

type TAccount = {
  generation: number;
  answers: Map<string, { body: Buffer; validUntil: number }>;
  sessions: Map<number, TCachedSession<unknown, unknown>>;
  bytes: number;
};

/** What the cache has done since it opened (read by the metrics when scraped). */
export type TAnswerCacheStats = {
  /** False with ANSWER_CACHE_MB=0: no cache, no change feed. */
  isOn: boolean;
  /** The change feed's listening connection is up. */
  isLive: boolean;
  answerHits: number;
  answerMisses: number;
  sessionHits: number;
  sessionMisses: number;
  /** Accounts dropped: by a notification of a change, by the feed lost or back, by the memory bound. */
  dropsByChange: number;
  dropsByFeed: number;
  dropsByMemory: number;
  bytes: number;
  accounts: number;
};

/** A miss in progress: what it computes is kept only if its account did not change meanwhile. */
export type TAnswerTicket = { userId: number; account: TAccount; generation: number };

export type TAnswerCache = {
  /**
   * Whether memory may answer this request: true once caught up with every
   * change committed before the call, false when the feed is down or the cache
   * is off. Call once per request, before any lookup.
   */
  ready(): boolean | Promise<boolean>;
  /** The kept answer's bytes (UTF-8 JSON), sent as they are. */
  answer(userId: number, key: string): Buffer | undefined;
  session<TUser, TSession>(userId: number, sessionId: number): TCachedSession<TUser, TSession> | undefined;
  /** Starts a miss; undefined when the cache is off. */
  begin(userId: number): TAnswerTicket | undefined;
  keepAnswer(ticket: TAnswerTicket, key: string, body: Buffer, validUntil: number): void;
  keepSession<TUser, TSession>(ticket: TAnswerTicket, sessionId: number, entry: TCachedSession<TUser, TSession>): void;
  /** Drops what is kept for an account (its notification). */
  forget(userId: number): void;
  stats(): TAnswerCacheStats;
  close(): Promise<void>;
};

// A session's share of the memory bound (the user row and the session row).
const SESSION_BYTES = 2048;

type TAnswerScope = { hasReadClock: boolean; holdsUntil: number };
const answerScope = new AsyncLocalStorage<TAnswerScope>();

/**
 * Runs a handler whose answer may be kept, and says until when it holds:
 * Infinity (until its account changes), or 0 when it read the clock without
 * saying until when its answer holds.
 */
export async function runForAnswer<T>(work: () => Promise<T>): Promise<{ result: T; validUntil: number }> {
  const scope: TAnswerScope = { hasReadClock: false, holdsUntil: Infinity };
  const result = await answerScope.run(scope, work);
  return { result, validUntil: scope.hasReadClock && scope.holdsUntil === Infinity ? 0 : scope.holdsUntil };
}

/**
 * Said by a service whose answer depends on the time: it holds until `ms`
 * (epoch milliseconds), for example the end of the current hour's bucket.
 */
export function answerHoldsUntil(ms: number): void {
  const scope = answerScope.getStore();
  if (scope) scope.holdsUntil = Math.min(scope.holdsUntil, ms);
}

/** The clock handed to the services: reading it marks the answer being computed as time-dependent. */
export function clockWatchedByAnswers(clock: TClock): TClock {
  return {
    now: () => {
      const scope = answerScope.getStore();
      if (scope) scope.hasReadClock = true;
      return clock.now();
    },
  };
}

/** A cache that keeps nothing (ANSWER_CACHE_MB=0). */
const OFF: TAnswerCache = {
  ready: () => false,
  answer: () => undefined,
  session: () => undefined,
  begin: () => undefined,
  keepAnswer: () => {},
  keepSession: () => {},
  forget: () => {},
  stats: () => ({
    isOn: false,
    isLive: false,
    answerHits: 0,
    answerMisses: 0,
    sessionHits: 0,
    sessionMisses: 0,
    dropsByChange: 0,
    dropsByFeed: 0,
    dropsByMemory: 0,
    bytes: 0,
    accounts: 0,
  }),
  close: async () => {},
};

/**
 * Opens the cache on the database's change feed; `maxBytes` 0 turns it off.
 * `onCatchUp` is told how long each catch-up took (the feed's lag) and whether it succeeded.
 */
export async function createAnswerCache(
  database: TDbHandle,
  options: { maxBytes: number; clock: TClock; onCatchUp?: (seconds: number, isCaughtUp: boolean) => void },
): Promise<TAnswerCache> {
  if (options.maxBytes <= 0) return OFF;
  // Least recently used first (a Map keeps insertion order; a use moves the account to the end).
  const accounts = new Map<number, TAccount>();
  let totalBytes = 0;
  let isLive = false;
  // Queries of this process answered when the last catch-up started, and the catch-up in flight.
  let caughtUpTo = -1;
  let inFlight: { mark: number; done: Promise<boolean> } | undefined;
  const counts = {
    answerHits: 0,
    answerMisses: 0,
    sessionHits: 0,
    sessionMisses: 0,
    dropsByChange: 0,
    dropsByFeed: 0,
    dropsByMemory: 0,
  };

  const dropAll = () => {
    counts.dropsByFeed += accounts.size;
    for (const account of accounts.values()) account.generation += 1;
    accounts.clear();
    totalBytes = 0;
  };
  const forget = (userId: number, isForMemory = false) => {
    const account = accounts.get(userId);
    if (!account) return;
    if (isForMemory) counts.dropsByMemory += 1;
    else counts.dropsByChange += 1;
    account.generation += 1;
    totalBytes -= account.bytes;
    accounts.delete(userId);
  };
  const touch = (userId: number): TAccount | undefined => {
    const account = accounts.get(userId);
    if (account) {
      accounts.delete(userId);
      accounts.set(userId, account);
    }
    return account;
  };
  const trim = () => {
    for (const [userId] of accounts) {
      if (totalBytes <= options.maxBytes) return;
      forget(userId, true);
    }
  };

  const feed: TChangeFeed = await openChangeFeed(database, USER_ROWS_CHANNEL, {
    onNotify: (payload) => {
      const userId = Number(payload);
      if (Number.isSafeInteger(userId)) forget(userId);
      else dropAll();
    },
    onLive: (live) => {
      isLive = live;
      caughtUpTo = -1;
      dropAll();
    },
  });
  isLive = feed.isLive();

  const catchUp = (): Promise<boolean> => {
    const mark = database.settledQueries();
    const startedAt = performance.now();
    const done = feed.catchUp().then((isCaughtUp) => {
      options.onCatchUp?.((performance.now() - startedAt) / 1000, isCaughtUp);
      if (inFlight?.done === done) inFlight = undefined;
      if (isCaughtUp && isLive) caughtUpTo = Math.max(caughtUpTo, mark);
      return isCaughtUp && isLive;
    });
    inFlight = { mark, done };
    return done;
  };
  const ready = (): boolean | Promise<boolean> => {
    if (!isLive) return false;
    const settled = database.settledQueries();
    if (settled <= caughtUpTo) return true;
    if (!inFlight) return catchUp();
    if (inFlight.mark >= settled) return inFlight.done;
    // Queries answered after the catch-up in flight started: one more after it.
    return inFlight.done.then(() => ready());
  };

  return {
    ready,
    answer: (userId, key) => {
      const kept = touch(userId)?.answers.get(key);
      if (kept && kept.validUntil > options.clock.now().getTime()) {
        counts.answerHits += 1;
        return kept.body;
      }
      counts.answerMisses += 1;
      return undefined;
    },
    session: <TUser, TSession>(userId: number, sessionId: number) => {
      const kept = touch(userId)?.sessions.get(sessionId) as TCachedSession<TUser, TSession> | undefined;
      if (kept) counts.sessionHits += 1;
      else counts.sessionMisses += 1;
      return kept;
    },
    begin: (userId) => {
      if (!isLive) return undefined;
      let account = touch(userId);
      if (!account)
        accounts.set(userId, (account = { generation: 0, answers: new Map(), sessions: new Map(), bytes: 0 }));
      return { userId, account, generation: account.generation };
    },
    keepAnswer: (ticket, key, body, validUntil) => {
      const { account } = ticket;
      if (accounts.get(ticket.userId) !== account || account.generation !== ticket.generation || !isLive) return;
      const before = account.answers.get(key);
      // The key is UTF-16 (two bytes a character), the body bytes.
      const delta = key.length * 2 + body.length - (before ? key.length * 2 + before.body.length : 0);
      account.answers.set(key, { body, validUntil });
      account.bytes += delta;
      totalBytes += delta;
      trim();
    },
    keepSession: (ticket, sessionId, entry) => {
      const { account } = ticket;
      if (accounts.get(ticket.userId) !== account || account.generation !== ticket.generation || !isLive) return;
      if (!account.sessions.has(sessionId)) {
        account.bytes += SESSION_BYTES;
        totalBytes += SESSION_BYTES;
      }
      account.sessions.set(sessionId, entry);
      trim();
    },
    forget: (userId) => forget(userId),
    stats: () => ({ isOn: true, isLive, ...counts, bytes: totalBytes, accounts: accounts.size }),
    close: () => feed.close(),
  };
}
