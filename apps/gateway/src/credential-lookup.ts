/**
 * Looks up, in the database, credentials the gateway's in-memory copy does
 * not accept yet (a proxy bought a moment ago, a password just reset, a
 * token just enabled or renewed, a new whitelist entry). One query runs at a
 * time: usernames asked for meanwhile wait for the next round, which starts
 * after they were asked, so it sees every change committed before the client
 * connected. A flood of unknown usernames costs one query per round and
 * chunk, never one per name, and rounds are spaced by `minGapMs`.
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

function newRound(): TRound {
  let settle = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { names: new Set(), done, settle };
}

/** Creates the lookup; `request` resolves true once the name has been looked at, false when refused. */
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
    try {
      for (let i = 0; i < names.length; i += maxPerQuery) {
        queries += 1;
        await options.load(names.slice(i, i + maxPerQuery));
      }
    } catch (error) {
      options.onError?.(error);
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
