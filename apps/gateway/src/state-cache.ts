import { createIpMatcher } from '@proxy/contract';
import type { TDb } from '@proxy/db';
import { createCredentialLookup } from './credential-lookup';
import {
  loadExitNodes,
  loadIpEntries,
  loadIpEntriesOfUsers,
  loadTokensAfter,
  loadTokensByUsername,
  loadTokensChangedSince,
  loadUsageLogUsers,
  readVersion,
  type TExitNodeRow,
  type TIpEntryRow,
  type TTokenRow,
} from './gateway.repository';

/** Settings of the state cache. */
export type TStateCacheOptions = {
  db: TDb;
  /** How often the version row is polled (the fallback when a notification is lost). */
  pollIntervalMs?: number;
  /**
   * Subscribes to change notifications (NOTIFY after every committed change of
   * tokens or IP lists); answers how to unsubscribe. Without it the cache polls only.
   */
  listen?: (onChange: () => void) => Promise<() => Promise<void>>;
  /** Told of every token row put into the copy (a renewal may lift exhaustion). */
  onToken?: (row: TTokenRow) => void;
  onError?: (error: unknown, where: string) => void;
  /** Rows per read of the cold load (COLD_LOAD_PAGE unless a test reads in small pages). */
  coldLoadPage?: number;
};

/** An owner's IP lists. */
export type TIpLists = { whitelist: TMatcher; blacklist: TMatcher };

type TMatcher = ReturnType<typeof createIpMatcher>;
type TRange = { family: 4 | 6; start: bigint; end: bigint };

// Re-read a little before the last change seen: a transaction may commit after a later one.
const SYNC_OVERLAP_MS = 10_000;
// Rows per read of the cold load: a million tokens never sit in memory twice.
const COLD_LOAD_PAGE = 20_000;

/**
 * One copy of each short text the tokens repeat (product, status, country,
 * city...): a million tokens then hold a few dozen strings, not millions.
 */
function createInterner() {
  const seen = new Map<string, string>();
  return <T extends string>(text: T): T => {
    const known = seen.get(text);
    if (known !== undefined) return known as T;
    seen.set(text, text);
    return text;
  };
}

function hexToBigInt(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

function listsOf(entries: TIpEntryRow[]): Map<number, TIpLists> {
  const grouped = new Map<number, { whitelist: TRange[]; blacklist: TRange[] }>();
  for (const e of entries) {
    let g = grouped.get(e.userId);
    if (!g) grouped.set(e.userId, (g = { whitelist: [], blacklist: [] }));
    g[e.list].push({ family: e.family as 4 | 6, start: hexToBigInt(e.startHex), end: hexToBigInt(e.endHex) });
  }
  return new Map([...grouped].map(([userId, g]) => [userId, { whitelist: createIpMatcher(g.whitelist), blacklist: createIpMatcher(g.blacklist) }]));
}

/**
 * The gateway's in-memory copy of tokens, exit nodes and IP lists, kept fresh
 * by change notifications (and by polling the version row, in case one is
 * lost). Credentials the copy does not know are looked up once (coalesced,
 * see credential-lookup.ts): `lookUp` resolves true once the name has been read.
 */
export function createStateCache(options: TStateCacheOptions) {
  const { db } = options;
  const onError = options.onError ?? (() => {});
  const tokensById = new Map<number, TTokenRow>();
  const tokensByUsername = new Map<string, TTokenRow>();
  let nodesById = new Map<number, TExitNodeRow>();
  let listsByUser = new Map<number, TIpLists>();
  // Accounts that opted in to the per-connection usage log.
  let usageLogUsers = new Set<number>();
  let version = -1;
  let lastChange: Date | null = null;
  // Order of reads: a sync does not overwrite a user's IP lists with what it read before a lookup of them.
  let readSeq = 0;
  const listsReadAt = new Map<number, number>();

  const intern = createInterner();

  // Rows come with their repeated texts already shared (the loaders take `intern`).
  function putToken(row: TTokenRow): void {
    const old = tokensById.get(row.id);
    // Rows of one token change in order (the updated_at trigger runs under the row lock): never go back.
    if (old && old.updatedAt > row.updatedAt) return;
    if (old && old.username !== row.username) tokensByUsername.delete(old.username);
    tokensById.set(row.id, row);
    tokensByUsername.set(row.username, row);
    options.onToken?.(row);
  }

  async function sync(force = false): Promise<void> {
    const seq = ++readSeq;
    const current = await readVersion(db);
    if (!force && current === version) return;
    const since = lastChange ? new Date(lastChange.getTime() - SYNC_OVERLAP_MS) : null;
    const [nodes, entries, logUsers] = await Promise.all([loadExitNodes(db), loadIpEntries(db), loadUsageLogUsers(db), loadTokens(since)]);
    usageLogUsers = new Set(logUsers);
    nodesById = new Map(nodes.map((n) => [n.id, n]));
    const lists = listsOf(entries);
    for (const [userId, readAt] of listsReadAt) {
      if (readAt < seq) {
        listsReadAt.delete(userId);
        continue;
      }
      // A lookup read this user's lists after this sync began: keep them.
      const kept = listsByUser.get(userId);
      if (kept) lists.set(userId, kept);
      else lists.delete(userId);
    }
    listsByUser = lists;
    version = Math.max(version, current);
  }

  // Every token (cold load, in pages by id) or those changed since a time.
  async function loadTokens(since: Date | null): Promise<void> {
    const take = (rows: TTokenRow[]) => {
      for (const row of rows) {
        putToken(row);
        if (!lastChange || row.updatedAt > lastChange) lastChange = row.updatedAt;
      }
    };
    if (since) return take(await loadTokensChangedSince(db, since, intern));
    const pageSize = options.coldLoadPage ?? COLD_LOAD_PAGE;
    // The pages of one snapshot, as one query would read them: the last change seen then bounds the next sync.
    await db.transaction(
      async (tx) => {
        for (let afterId = 0; ;) {
          const page = await loadTokensAfter(tx, afterId, pageSize, intern);
          take(page);
          if (page.length < pageSize) return;
          afterId = page[page.length - 1].id;
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  // One sync at a time; a request made while one runs gets the next one (which reads after the request).
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  function requestSync(): Promise<void> {
    if (!running) {
      running = sync().finally(() => (running = null));
      return running;
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null;
        return requestSync();
      });
    return queued;
  }

  // Credentials the copy does not accept: one look in the database.
  async function loadCredentials(usernames: string[]): Promise<void> {
    const seq = ++readSeq;
    const rows = await loadTokensByUsername(db, usernames, intern);
    const userIds = [...new Set(rows.map((r) => r.userId))];
    const lists = listsOf(await loadIpEntriesOfUsers(db, userIds));
    for (const row of rows) putToken(row);
    for (const userId of userIds) {
      const userLists = lists.get(userId);
      if (userLists) listsByUser.set(userId, userLists);
      else listsByUser.delete(userId);
      listsReadAt.set(userId, seq);
    }
  }
  const lookup = createCredentialLookup({ load: loadCredentials, onError: (error) => onError(error, 'lookup') });

  let pollTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  return {
    tokenById: (id: number) => tokensById.get(id),
    tokenByUsername: (username: string) => tokensByUsername.get(username),
    node: (id: number) => nodesById.get(id),
    nodes: () => nodesById.values(),
    listsOf: (userId: number) => listsByUser.get(userId),
    /** Whether the account keeps a per-connection usage log. */
    isUsageLogged: (userId: number) => usageLogUsers.has(userId),
    /** Reads the rows of this username now (coalesced with other names asked meanwhile). */
    lookUp: (username: string) => lookup.request(username),
    /** Loads everything, then listens and polls the version row. */
    async start(): Promise<void> {
      await sync(true);
      unlisten = await options.listen?.(() => void requestSync().catch((err) => onError(err, 'sync')));
      pollTimer = setInterval(() => {
        if (running) return;
        requestSync().catch((err) => onError(err, 'sync'));
      }, options.pollIntervalMs ?? 1000);
      pollTimer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(pollTimer);
      lookup.stop();
      await unlisten?.();
    },
    sync,
    /** Resolves once a sync that began after this call has applied the database's version. */
    refresh: () => requestSync(),
    appliedVersion: () => version,
    stats: () => ({ tokens: tokensById.size, nodes: nodesById.size, version, lookups: lookup.queries() }),
  };
}

/** The state cache type. */
export type TStateCache = ReturnType<typeof createStateCache>;
