import { timingSafeEqual } from 'node:crypto';
import { createIpMatcher, findTokenStateRefusal, parseProxyUsername } from '@proxy/contract';
import type { TDb } from '@proxy/db';
import type { TAuthorizer, TGrant, TMeter } from './authorizer';
import type { TExit } from './egress';
import { createCredentialLookup } from './credential-lookup';
import {
  claimLease,
  loadExitNodes,
  loadIpEntries,
  loadIpEntriesOfUsers,
  loadTokensByUsername,
  loadTokensChangedSince,
  readVersion,
  returnLease,
  writeUsage,
  type TExitNodeRow,
  type TIpEntryRow,
  type TTokenRow,
} from './gateway.repository';
import type { TRefusal } from './refusals';
import { rankExits } from './rotation';

/** Settings of the token store. */
export type TTokenStoreOptions = {
  db: TDb;
  /** Injectable clock (tests move time for expiry and rotation). */
  now?: () => number;
  /** Simultaneous connections per token. */
  maxConnectionsPerToken?: number;
  /** How often the version row is polled (the fallback when a notification is lost). */
  pollIntervalMs?: number;
  /**
   * Subscribes to change notifications (NOTIFY after every committed change of
   * tokens or IP lists); answers how to unsubscribe. Without it the store polls only.
   */
  listen?: (onChange: () => void) => Promise<() => Promise<void>>;
  /** How often metered bytes are written. */
  flushIntervalMs?: number;
  /** Traffic claimed per lease. */
  leaseBytes?: number;
  /** A failing upstream is skipped this long by dynamic tokens. */
  exitPenaltyMs?: number;
  onError?: (error: unknown, where: string) => void;
};

type TMatcher = ReturnType<typeof createIpMatcher>;
type TLists = { whitelist: TMatcher; blacklist: TMatcher };
type TRange = { family: 4 | 6; start: bigint; end: bigint };

// Refusals a fresher row could lift (bought, reset, enabled, renewed, whitelisted a moment ago).
const LOOKUP_REFUSALS = new Set<TRefusal>(['bad-credentials', 'token-disabled', 'token-expired', 'token-exhausted', 'source-refused']);

// Re-read a little before the last change seen: a transaction may commit after a later one.
const SYNC_OVERLAP_MS = 10_000;

function hexToBigInt(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

function toExit(node: TExitNodeRow): TExit {
  if (node.egress === 'direct') return { id: node.id, kind: 'direct' };
  return { id: node.id, kind: node.egress, host: node.host, port: node.port, username: node.username ?? undefined, password: node.password ?? undefined };
}

function listsOf(entries: TIpEntryRow[]): Map<number, TLists> {
  const grouped = new Map<number, { whitelist: TRange[]; blacklist: TRange[] }>();
  for (const e of entries) {
    let g = grouped.get(e.userId);
    if (!g) grouped.set(e.userId, (g = { whitelist: [], blacklist: [] }));
    g[e.list].push({ family: e.family as 4 | 6, start: hexToBigInt(e.startHex), end: hexToBigInt(e.endHex) });
  }
  return new Map([...grouped].map(([userId, g]) => [userId, { whitelist: createIpMatcher(g.whitelist), blacklist: createIpMatcher(g.blacklist) }]));
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The gateway's in-memory copy of tokens, exit nodes and IP lists, kept fresh
 * by change notifications (and by polling the version row, in case one is
 * lost), plus metering with traffic leases. The hot path (authorize, check,
 * record) does not wait for the database, except that credentials the copy
 * refuses are looked up once (coalesced, see credential-lookup.ts) before the
 * refusal: what the API has answered is already true at the gateway.
 */
export function createTokenStore(options: TTokenStoreOptions) {
  const { db } = options;
  const now = options.now ?? Date.now;
  const maxConnections = options.maxConnectionsPerToken ?? 200;
  const leaseBytes = options.leaseBytes ?? 8 * 1024 * 1024;
  const exitPenaltyMs = options.exitPenaltyMs ?? 60_000;
  const onError = options.onError ?? (() => {});

  const tokensById = new Map<number, TTokenRow>();
  const tokensByUsername = new Map<string, TTokenRow>();
  let nodesById = new Map<number, TExitNodeRow>();
  let listsByUser = new Map<number, TLists>();
  let version = -1;
  let lastChange: Date | null = null;
  const failedExits = new Map<number, number>();
  // Order of reads: a sync does not overwrite a user's IP lists with what it read before a lookup of them.
  let readSeq = 0;
  const listsReadAt = new Map<number, number>();

  // Metering: bytes waiting to be written, and the unspent lease of traffic tokens.
  const pending = new Map<number, number>();
  const lease = new Map<number, number>();
  const claiming = new Set<number>();
  const exhausted = new Set<number>();

  // --- loading ------------------------------------------------------------
  function putToken(row: TTokenRow): void {
    const old = tokensById.get(row.id);
    // Rows of one token change in order (the updated_at trigger runs under the row lock): never go back.
    if (old && old.updatedAt > row.updatedAt) return;
    if (old && old.username !== row.username) tokensByUsername.delete(old.username);
    tokensById.set(row.id, row);
    tokensByUsername.set(row.username, row);
    // A changed allowance (renewal, new limit) may lift exhaustion.
    if (row.trafficLimitBytes !== null && Math.max(row.trafficLeasedBytes, row.trafficUsedBytes) < row.trafficLimitBytes) exhausted.delete(row.id);
  }

  async function sync(force = false): Promise<void> {
    const seq = ++readSeq;
    const current = await readVersion(db);
    if (!force && current === version) return;
    const since = lastChange ? new Date(lastChange.getTime() - SYNC_OVERLAP_MS) : null;
    const [tokens, nodes, entries] = await Promise.all([loadTokensChangedSince(db, since), loadExitNodes(db), loadIpEntries(db)]);
    for (const row of tokens) {
      putToken(row);
      if (!lastChange || row.updatedAt > lastChange) lastChange = row.updatedAt;
    }
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

  // --- credentials the copy does not accept: one look in the database ----------
  async function loadCredentials(usernames: string[]): Promise<void> {
    const seq = ++readSeq;
    const rows = await loadTokensByUsername(db, usernames);
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

  // --- rules --------------------------------------------------------------
  function refusalOf(token: TTokenRow, sourceIp: string): TRefusal | null {
    // With a lease in hand the token may spend it; without one, what is left is what no gateway has claimed.
    const allowanceLeft =
      token.trafficLimitBytes === null || lease.get(token.id) ? Infinity : token.trafficLimitBytes - Math.max(token.trafficLeasedBytes, token.trafficUsedBytes);
    const stateRefusal = findTokenStateRefusal(token, now(), exhausted.has(token.id) ? 0 : allowanceLeft);
    if (stateRefusal) return stateRefusal;
    const lists = listsByUser.get(token.userId);
    if (lists) {
      if (lists.blacklist.matches(sourceIp)) return 'source-refused';
      if (lists.whitelist.size > 0 && !lists.whitelist.matches(sourceIp)) return 'source-refused';
    }
    return null;
  }

  function areaNodes(token: TTokenRow, area: { country: string; state: string; city: string }): TExitNodeRow[] {
    const kind = token.category === 'idc' ? 'datacenter' : 'residential';
    const list: TExitNodeRow[] = [];
    for (const node of nodesById.values()) {
      if (node.status !== 'active' || node.kind !== kind) continue;
      // Upstream nodes held by a static token are not shared.
      if (node.holderTokenId !== null && node.holderTokenId !== token.id) continue;
      if (node.country !== area.country) continue;
      if (area.state && node.state !== area.state) continue;
      if (area.city && node.city !== area.city) continue;
      list.push(node);
    }
    return list.sort((a, b) => a.id - b.id);
  }

  function exitsFor(token: TTokenRow, opts: { country?: string; state?: string; city?: string; session?: string; sesstime?: number }): TExit[] {
    if (token.product === 'static') {
      const node = token.exitNodeId !== null ? nodesById.get(token.exitNodeId) : undefined;
      return node && node.status === 'active' ? [toExit(node)] : [];
    }
    const area = opts.country
      ? { country: opts.country, state: opts.state ?? '', city: opts.city ?? '' }
      : { country: token.country, state: opts.state ?? token.state, city: opts.city ?? token.city };
    const t = now();
    const all = areaNodes(token, area);
    // An exit that failed here lately is skipped by this gateway only (the others may still reach it).
    const healthy = all.filter((n) => (failedExits.get(n.id) ?? 0) <= t);
    const pool = healthy.length ? healthy : all;
    if (pool.length === 0) return [];
    const byId = new Map(pool.map((n) => [n.id, n]));
    const ranked = rankExits({ tokenId: token.id, session: opts.session, sesstimeMinutes: opts.sesstime, candidates: [...byId.keys()], now: t });
    return ranked.map((id) => toExit(byId.get(id)!));
  }

  // --- leases -------------------------------------------------------------
  function topUp(token: TTokenRow): void {
    if (claiming.has(token.id)) return;
    claiming.add(token.id);
    claimLease(db, token.id, leaseBytes).then(
      (granted) => {
        claiming.delete(token.id);
        if (granted > 0) {
          lease.set(token.id, (lease.get(token.id) ?? 0) + granted);
          exhausted.delete(token.id);
        } else if ((lease.get(token.id) ?? 0) <= 0) {
          exhausted.add(token.id);
        }
      },
      (err: unknown) => {
        claiming.delete(token.id);
        onError(err, 'lease');
      },
    );
  }

  function decide({ username, password, protocol, sourceIp }: Parameters<TAuthorizer['authorize']>[0]): TGrant | TRefusal {
    const parsed = parseProxyUsername(username);
    if (!parsed) return 'bad-credentials';
    const token = tokensByUsername.get(parsed.username);
    if (!token || !sameSecret(token.password, password)) return 'bad-credentials';
    const refusal = refusalOf(token, sourceIp);
    if (refusal) return refusal;
    if ((protocol === 'socks5') !== (token.network === 'SOCKS5')) return 'wrong-protocol';
    const exits = exitsFor(token, parsed.options);
    if (exits.length === 0) return 'no-exit';
    if (token.trafficLimitBytes !== null && (lease.get(token.id) ?? 0) < leaseBytes / 2) topUp(token);
    const grant: TGrant = {
      tokenId: token.id,
      exits,
      maxConnections,
      onExitFailed: (exit) => {
        if (token.product === 'dynamic') failedExits.set(exit.id, now() + exitPenaltyMs);
      },
    };
    return grant;
  }

  const authorizer: TAuthorizer = {
    authorize(input) {
      const first = decide(input);
      if (typeof first !== 'string' || !LOOKUP_REFUSALS.has(first)) return first;
      const parsed = parseProxyUsername(input.username);
      if (!parsed) return first;
      return lookup.request(parsed.username).then((looked) => (looked ? decide(input) : first));
    },
    check(tokenId, sourceIp) {
      const token = tokensById.get(tokenId);
      return token ? refusalOf(token, sourceIp) : 'token-disabled';
    },
  };

  const meter: TMeter = {
    record(tokenId, bytes) {
      pending.set(tokenId, (pending.get(tokenId) ?? 0) + bytes);
      const token = tokensById.get(tokenId);
      if (!token || token.trafficLimitBytes === null) return;
      const left = (lease.get(tokenId) ?? 0) - bytes;
      lease.set(tokenId, left);
      if (left < leaseBytes / 2) topUp(token);
      if (left <= 0 && !claiming.has(tokenId)) exhausted.add(tokenId);
    },
  };

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const rows: { tokenId: number; userId: number; bytes: number }[] = [];
    for (const [tokenId, bytes] of pending) {
      const token = tokensById.get(tokenId);
      if (token && bytes > 0) rows.push({ tokenId, userId: token.userId, bytes });
    }
    pending.clear();
    const t = new Date(now());
    const bucket = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()));
    try {
      await writeUsage(db, rows, bucket);
    } catch (err) {
      // Keep the bytes for the next flush rather than lose them.
      for (const r of rows) pending.set(r.tokenId, (pending.get(r.tokenId) ?? 0) + r.bytes);
      throw err;
    }
  }

  let pollTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let isFlushing = false;

  return {
    authorizer,
    meter,
    /** Loads everything, then polls the version row and flushes usage on timers. */
    async start(): Promise<void> {
      await sync(true);
      unlisten = await options.listen?.(() => void requestSync().catch((err) => onError(err, 'sync')));
      pollTimer = setInterval(() => {
        if (running) return;
        requestSync().catch((err) => onError(err, 'sync'));
      }, options.pollIntervalMs ?? 1000);
      flushTimer = setInterval(() => {
        if (isFlushing) return;
        isFlushing = true;
        flush()
          .catch((err) => onError(err, 'flush'))
          .finally(() => (isFlushing = false));
      }, options.flushIntervalMs ?? 2000);
      pollTimer.unref();
      flushTimer.unref();
    },
    /** Reloads now (tests; the timers do it otherwise). */
    sync: (force = false) => sync(force),
    /** Resolves once a sync that began after this call has applied the database's version (embedded mode: before the API answers). */
    refresh: () => requestSync(),
    /** The version of the database this copy has applied. */
    appliedVersion: () => version,
    /** Writes pending usage now. */
    flush,
    /** Stops the timers, writes what is pending and gives back unspent leases. */
    async stop(): Promise<void> {
      clearInterval(pollTimer);
      clearInterval(flushTimer);
      lookup.stop();
      await unlisten?.();
      while (isFlushing) await new Promise((r) => setTimeout(r, 10));
      await flush();
      for (const [tokenId, left] of lease) if (left > 0) await returnLease(db, tokenId, left);
      lease.clear();
    },
    /** For tests and diagnostics. */
    stats: () => ({ tokens: tokensById.size, nodes: nodesById.size, version, pendingTokens: pending.size, lookups: lookup.queries() }),
  };
}

/** The token store type. */
export type TTokenStore = ReturnType<typeof createTokenStore>;
