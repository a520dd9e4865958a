/**
 * Looks up, in the database, credentials the gateway's in-memory copy does
 * not accept yet (a proxy bought a moment ago, a password just reset, a
 * token just enabled or renewed, a new whitelist entry). One query runs at a
 * time: usernames asked for meanwhile wait for the next round, which starts
 * after they were asked, so it sees every change committed before the client
 * connected. A flood of unknown usernames costs one query per round and
 * chunk, never one per name, and rounds are spaced by `minGapMs`.
 *
 * A name no proxy can have and the database's text cannot hold (a NUL byte,
 * an unpaired surrogate, the replacement character that stands for invalid
 * UTF-8 bytes, a control character) is refused without a look. Should a name
 * still fail a query on its value (PostgreSQL's data exception, SQLSTATE class
 * 22), the chunk is split and the halves looked up apart, so one bad name does
 * not fail the others asked with it.
 */

/** Settings of the lookup. */
export type TCredentialLookupOptions = {
  /** Loads the rows of these usernames into the copy. */
  load(usernames: string[]): Promise<void>;
  /** Usernames per query. */
  maxPerQuery?: number;
  /** Usernames waiting at most; beyond that a name is refused without a look. */
  maxWaiting?: number;
  /** Least time between the starts of two rounds. */
  minGapMs?: number;
  onError?: (error: unknown) => void;
};

type TRound = { names: Set<string>; done: Promise<void>; settle: () => void };

// Extra queries one round may make to set a failing name apart from the others of its chunk (about 2 x log2(500) each).
const ISOLATION_QUERIES = 64;

// Control characters (NUL among them), U+FFFD (which a UTF-8 decoder puts where the bytes were not UTF-8) and
// unpaired surrogates (\p{Cs} in a /u pattern matches only those): no proxy's username holds one.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\u0000-\u001f\u007f\ufffd]|\p{Cs}/u;

/** Whether a username may be looked up: text PostgreSQL can hold, of the kind the API gives proxies. */
export function isLookupName(username: string): boolean {
  return username.length > 0 && !UNSTORABLE.test(username);
}

// A query refused for a value it was given (PostgreSQL's class 22, e.g. 22021 for a NUL byte), not for the database's state.
function isValueError(error: unknown): boolean {
  let e = error;
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && code.startsWith('22')) return true;
    e = cause;
  }
  return false;
}

function newRound(): TRound {
  let settle = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { names: new Set(), done, settle };
}

/** Creates the lookup; `request` resolves true once the name has been looked at, false when refused without a look. */
export function createCredentialLookup(options: TCredentialLookupOptions) {
  const maxPerQuery = options.maxPerQuery ?? 500;
  const maxWaiting = options.maxWaiting ?? 5000;
  const minGapMs = options.minGapMs ?? 10;
  let next: TRound | null = null;
  let isRunning = false;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let queries = 0;

  async function run(): Promise<void> {
    timer = undefined;
    if (isRunning || !next) return;
    const round = next;
    next = null;
    isRunning = true;
    lastStart = performance.now();
    const names = [...round.names];
    let budget = ISOLATION_QUERIES;
    // Loads the names; on a value error, each half apart (while the round's budget lasts).
    async function load(chunk: string[]): Promise<void> {
      queries += 1;
      try {
        await options.load(chunk);
      } catch (error) {
        if (chunk.length === 1 || budget < 2 || !isValueError(error)) throw error;
        budget -= 2;
        const half = Math.ceil(chunk.length / 2);
        const failures: unknown[] = [];
        for (const part of [chunk.slice(0, half), chunk.slice(half)]) await load(part).catch((e) => failures.push(e));
        if (failures.length > 0) throw failures[0];
      }
    }
    try {
      for (let i = 0; i < names.length; i += maxPerQuery) {
        // A chunk that fails does not keep the next ones from being looked up.
        await load(names.slice(i, i + maxPerQuery)).catch((error) => options.onError?.(error));
      }
    } finally {
      isRunning = false;
      round.settle();
      schedule();
    }
  }

  function schedule(): void {
    if (!next || isRunning || timer) return;
    // Even the first round waits for the current turn of the event loop, so names asked together go together.
    const wait = Math.max(0, lastStart + minGapMs - performance.now());
    timer = setTimeout(() => void run(), wait);
  }

  return {
    async request(username: string): Promise<boolean> {
      if (!isLookupName(username)) return false;
      if (!next) next = newRound();
      if (!next.names.has(username) && next.names.size >= maxWaiting) return false;
      next.names.add(username);
      const round = next;
      schedule();
      await round.done;
      return true;
    },
    /** Queries made so far (tests and diagnostics). */
    queries: () => queries,
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
      next?.settle();
      next = null;
    },
  };
}
