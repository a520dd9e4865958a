import { compileTargetRules, createIpMatcher, type TTargetRuleMatcher } from '@proxy/contract';
import type { TDb, TSecretBox } from '@proxy/db';
import { createCredentialLookup } from './credential-lookup';
import { createTokenLineDecoder, readTokensAfter } from './cold-load.repository';
import { loadExitNodes, type TExitNodeRow } from './exit-nodes.repository';
import { loadPools } from './pools.repository';
import { toGatewayPool, type TGatewayPool } from './upstream-pools';
import { loadIpEntries, loadIpEntriesOfUsers, type TIpEntryRow } from './ip-lists.repository';
import { readVersion } from './state-version.repository';
import { loadTargetRules, loadTargetRulesOfUsers, type TTargetRuleRow } from './target-rules.repository';
import { loadTokensByUsername, loadTokensChangedSince, type TTokenRow } from './tokens.repository';
import { loadDomainUsageOffUsers, loadUsageLogUsers } from './usage-log.repository';

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
  /** Opens the sealed passwords of upstream exits (DATA_ENCRYPTION_KEY); null or left out: no key given. */
  secretBox?: TSecretBox | null;
};

/** An owner's IP lists. */
export type TIpLists = { whitelist: TMatcher; blacklist: TMatcher };

type TMatcher = ReturnType<typeof createIpMatcher>;

/** An owner's target rules, compiled: the account's list and proxies' own lists. */
export type TUserTargetRules = { account: TTargetRuleMatcher | null; byToken: Map<number, TTargetRuleMatcher> };
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
  return new Map(
    [...grouped].map(([userId, g]) => [
      userId,
      { whitelist: createIpMatcher(g.whitelist), blacklist: createIpMatcher(g.blacklist) },
    ]),
  );
}

/**
 * Compiles target rule lists, once per change: a list whose row is unchanged
 * (same id and update time) keeps its matcher from the last read.
 */
function createRuleCompiler() {
  let compiled = new Map<number, { at: number; matcher: TTargetRuleMatcher }>();
  return (rows: TTargetRuleRow[], isFullRead: boolean): Map<number, TUserTargetRules> => {
    const next = isFullRead ? new Map<number, { at: number; matcher: TTargetRuleMatcher }>() : compiled;
    const byUser = new Map<number, TUserTargetRules>();
    for (const row of rows) {
      const at = row.updatedAt.getTime();
      let entry = compiled.get(row.id);
      if (!entry || entry.at !== at) entry = { at, matcher: compileTargetRules(row) };
      next.set(row.id, entry);
      let user = byUser.get(row.userId);
      if (!user) byUser.set(row.userId, (user = { account: null, byToken: new Map() }));
      if (row.tokenId === null) user.account = entry.matcher;
      else user.byToken.set(row.tokenId, entry.matcher);
    }
    compiled = next;
    return byUser;
  };
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
  // Enabled upstream pools by kind, in id order (templates compiled once per load).
  let poolsByKind = new Map<string, TGatewayPool[]>();
  let poolCount = 0;
  let listsByUser = new Map<number, TIpLists>();
  let rulesByUser = new Map<number, TUserTargetRules>();
  const compileRules = createRuleCompiler();
  // Accounts that opted in to the per-connection usage log.
  let usageLogUsers = new Set<number>();
  let domainUsageOffUsers = new Set<number>();
  let version = -1;
  let lastChange: Date | null = null;
  // When a sync last read the database through (performance.now()); -Infinity before the first: the copy's freshness.
  let lastReadAt = -Infinity;
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
    const startedAt = performance.now();
    const current = await readVersion(db);
    if (!force && current === version) {
      lastReadAt = startedAt;
      return;
    }
    const since = lastChange ? new Date(lastChange.getTime() - SYNC_OVERLAP_MS) : null;
    const [nodes, entries, ruleRows, logUsers, domainOffUsers, changedTokens, poolRows] = await Promise.all([
      loadExitNodes(db, options.secretBox ?? null),
      loadIpEntries(db),
      loadTargetRules(db),
      loadUsageLogUsers(db),
      loadDomainUsageOffUsers(db),
      loadTokens(since),
      loadPools(db, options.secretBox ?? null, (poolId, why) =>
        onError(new Error(`pool ${poolId} is not used: ${why}`), 'pools'),
      ),
    ]);
    const byKind = new Map<string, TGatewayPool[]>();
    let loadedPools = 0;
    for (const row of poolRows) {
      const pool = toGatewayPool(row);
      if (!pool) {
        onError(new Error(`pool ${row.id} is not used: its username template does not compile`), 'pools');
        continue;
      }
      let list = byKind.get(pool.kind);
      if (!list) byKind.set(pool.kind, (list = []));
      list.push(pool);
      loadedPools += 1;
    }
    poolsByKind = byKind;
    poolCount = loadedPools;
    if (changedTokens) for (const row of changedTokens) takeRow(row);
    usageLogUsers = new Set(logUsers);
    domainUsageOffUsers = new Set(domainOffUsers);
    nodesById = new Map(nodes.map((n) => [n.id, n]));
    const lists = listsOf(entries);
    const rules = compileRules(ruleRows, true);
    for (const [userId, readAt] of listsReadAt) {
      if (readAt < seq) {
        listsReadAt.delete(userId);
        continue;
      }
      // A lookup read this user's lists (and target rules) after this sync began: keep them.
      const kept = listsByUser.get(userId);
      if (kept) lists.set(userId, kept);
      else lists.delete(userId);
      const keptRules = rulesByUser.get(userId);
      if (keptRules) rules.set(userId, keptRules);
      else rules.delete(userId);
    }
    listsByUser = lists;
    rulesByUser = rules;
    version = Math.max(version, current);
    lastReadAt = startedAt;
  }

  function takeRow(row: TTokenRow): void {
    putToken(row);
    if (!lastChange || row.updatedAt > lastChange) lastChange = row.updatedAt;
  }

  // Every token (cold load, in pages by id, put into the copy as they come), or those changed since a time (answered,
  // and put into the copy by the sync with the rest of what it read, so that a change applies as one).
  async function loadTokens(since: Date | null): Promise<TTokenRow[] | null> {
    if (since) return loadTokensChangedSince(db, since, intern);
    const pageSize = options.coldLoadPage ?? COLD_LOAD_PAGE;
    // Rows are put into the copy as they arrive: a page is never held as rows, nor as its text.
    const decoder = createTokenLineDecoder(intern, takeRow);
    // The pages of one snapshot, as one query would read them: the last change seen then bounds the next sync.
    await db.transaction(
      async (tx) => {
        for (let afterId = '0'; ;) {
          const page = await readTokensAfter(tx, afterId, pageSize, decoder);
          if (page.count < pageSize) return;
          afterId = page.lastId;
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    return null;
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
    const [entries, ruleRows] = await Promise.all([
      loadIpEntriesOfUsers(db, userIds),
      loadTargetRulesOfUsers(db, userIds),
    ]);
    const lists = listsOf(entries);
    const rules = compileRules(ruleRows, false);
    for (const row of rows) putToken(row);
    for (const userId of userIds) {
      const userLists = lists.get(userId);
      if (userLists) listsByUser.set(userId, userLists);
      else listsByUser.delete(userId);
      const userRules = rules.get(userId);
      if (userRules) rulesByUser.set(userId, userRules);
      else rulesByUser.delete(userId);
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
    /** The enabled pools of a kind (residential, datacenter), in id order. */
    poolsOf: (kind: string): readonly TGatewayPool[] => poolsByKind.get(kind) ?? [],
    /** Every enabled pool loaded. */
    pools: (): TGatewayPool[] => [...poolsByKind.values()].flat(),
    listsOf: (userId: number) => listsByUser.get(userId),
    /**
     * The target rules that apply to a token: its own list when it has one,
     * else its owner's account list, else none (contract target-rules.ts).
     */
    targetRulesOf(token: Pick<TTokenRow, 'id' | 'userId'>): TTargetRuleMatcher | null {
      const user = rulesByUser.get(token.userId);
      return user ? (user.byToken.get(token.id) ?? user.account) : null;
    },
    /** Whether the account keeps a per-connection usage log. */
    isUsageLogged: (userId: number) => usageLogUsers.has(userId),
    /** The account records its usage by target domain (on unless it turned it off). */
    isDomainUsageOn: (userId: number) => !domainUsageOffUsers.has(userId),
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
    /** Whether the first load is done, and how long ago (ms) the copy was last known to match the database. */
    freshness: () => ({ isLoaded: lastReadAt > -Infinity, ageMs: performance.now() - lastReadAt }),
    stats: () => ({
      tokens: tokensById.size,
      nodes: nodesById.size,
      pools: poolCount,
      version,
      lookups: lookup.queries(),
    }),
  };
}

/** The state cache type. */
export type TStateCache = ReturnType<typeof createStateCache>;
