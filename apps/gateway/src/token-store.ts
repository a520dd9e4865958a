import { timingSafeEqual } from 'node:crypto';
import { createIpMatcher, findTokenStateRefusal, parseProxyUsername } from '@proxy/contract';
import type { TDb } from '@proxy/db';
import type { TAuthorizer, TGrant, TMeter } from './authorizer';
import type { TExit } from './egress';
import {
  claimLease,
  loadExitNodes,
  loadIpEntries,
  loadTokensChangedSince,
  readVersion,
  returnLease,
  writeUsage,
  type TExitNodeRow,
  type TTokenRow,
} from './gateway.repository';
import type { TRefusal } from './refusals';
import { createRotation } from './rotation';

/** Settings of the token store. */
export type TTokenStoreOptions = {
  db: TDb;
  /** Injectable clock (tests move time for expiry and rotation). */
  now?: () => number;
  /** Simultaneous connections per token. */
  maxConnectionsPerToken?: number;
  /** How often the version row is polled. */
  pollIntervalMs?: number;
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

// Re-read a little before the last change seen: a transaction may commit after a later one.
const SYNC_OVERLAP_MS = 10_000;

function hexToBigInt(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

function toExit(node: TExitNodeRow): TExit {
  if (node.egress === 'direct') return { id: node.id, kind: 'direct' };
  return { id: node.id, kind: node.egress, host: node.host, port: node.port, username: node.username ?? undefined, password: node.password ?? undefined };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The gateway's in-memory copy of tokens, exit nodes and IP lists, kept fresh
 * by polling the version row, plus metering with traffic leases. The hot path
 * (authorize, check, record) never waits for the database.
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
  const rotation = createRotation(now);

  // Metering: bytes waiting to be written, and the unspent lease of traffic tokens.
  const pending = new Map<number, number>();
  const lease = new Map<number, number>();
  const claiming = new Set<number>();
  const exhausted = new Set<number>();

  // --- loading ------------------------------------------------------------
  function putToken(row: TTokenRow): void {
    const old = tokensById.get(row.id);
    if (old && old.username !== row.username) tokensByUsername.delete(old.username);
    tokensById.set(row.id, row);
    tokensByUsername.set(row.username, row);
    // A changed allowance (renewal, new limit) may lift exhaustion.
    if (row.trafficLimitBytes !== null && Math.max(row.trafficLeasedBytes, row.trafficUsedBytes) < row.trafficLimitBytes) exhausted.delete(row.id);
  }

  async function sync(force = false): Promise<void> {
    const current = await readVersion(db);
    if (!force && current === version) return;
    const since = lastChange ? new Date(lastChange.getTime() - SYNC_OVERLAP_MS) : null;
    const [tokens, nodes, entries] = await Promise.all([loadTokensChangedSince(db, since), loadExitNodes(db), loadIpEntries(db)]);
    for (const row of tokens) {
      putToken(row);
      if (!lastChange || row.updatedAt > lastChange) lastChange = row.updatedAt;
    }
    nodesById = new Map(nodes.map((n) => [n.id, n]));
    const grouped = new Map<
      number,
      { whitelist: { family: 4 | 6; start: bigint; end: bigint }[]; blacklist: { family: 4 | 6; start: bigint; end: bigint }[] }
    >();
    for (const e of entries) {
      let g = grouped.get(e.userId);
      if (!g) grouped.set(e.userId, (g = { whitelist: [], blacklist: [] }));
      g[e.list].push({ family: e.family as 4 | 6, start: hexToBigInt(e.startHex), end: hexToBigInt(e.endHex) });
    }
    listsByUser = new Map([...grouped].map(([userId, g]) => [userId, { whitelist: createIpMatcher(g.whitelist), blacklist: createIpMatcher(g.blacklist) }]));
    version = current;
  }

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
    const healthy = all.filter((n) => (failedExits.get(n.id) ?? 0) <= t);
    const pool = healthy.length ? healthy : all;
    if (pool.length === 0) return [];
    const chosen = rotation.choose({ tokenId: token.id, session: opts.session, sesstimeMinutes: opts.sesstime, candidates: pool.map((n) => n.id) });
    // The chosen exit first, then the others as fallbacks.
    const index = pool.findIndex((n) => n.id === chosen);
    return [...pool.slice(index), ...pool.slice(0, index)].map(toExit);
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

  const authorizer: TAuthorizer = {
    authorize({ username, password, protocol, sourceIp }) {
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
  let isSyncing = false;
  let isFlushing = false;

  return {
    authorizer,
    meter,
    /** Loads everything, then polls the version row and flushes usage on timers. */
    async start(): Promise<void> {
      await sync(true);
      pollTimer = setInterval(() => {
        if (isSyncing) return;
        isSyncing = true;
        sync()
          .catch((err) => onError(err, 'sync'))
          .finally(() => (isSyncing = false));
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
    /** Writes pending usage now. */
    flush,
    /** Stops the timers, writes what is pending and gives back unspent leases. */
    async stop(): Promise<void> {
      clearInterval(pollTimer);
      clearInterval(flushTimer);
      while (isFlushing) await new Promise((r) => setTimeout(r, 10));
      await flush();
      for (const [tokenId, left] of lease) if (left > 0) await returnLease(db, tokenId, left);
      lease.clear();
    },
    /** For tests and diagnostics. */
    stats: () => ({ tokens: tokensById.size, nodes: nodesById.size, version, pendingTokens: pending.size }),
  };
}

/** The token store type. */
export type TTokenStore = ReturnType<typeof createTokenStore>;
