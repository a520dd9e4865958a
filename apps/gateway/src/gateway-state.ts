import type { TDb } from '@proxy/db';
import { createAuthorizer, type TAuthorizer, type TGrant } from './authorizer';
import { GatewayCounters } from './gateway-counters';
import type { TRefusal } from './refusals';
import { createLeases } from './leases';
import { createMeter } from './meter';
import { createStateCache, type TStateCacheOptions } from './state-cache';
import { createUsageLog } from './usage-log';
import { createStickySessions } from './sticky-sessions';
import { createExitClaims } from './exit-claims';
import { writePoolHealth } from './pools.repository';
import { createPoolRuntime } from './upstream-pools';

// A clean stop tries its last flush this many times, this far apart, before it gives up (and the process exits 1).
const STOP_FLUSH_ATTEMPTS = 5;
const STOP_FLUSH_RETRY_MS = 1000;

/** Settings of the gateway's state. */
export type TGatewayStateOptions = {
  db: TDb;
  /** Injectable clock (tests move time for expiry and rotation). */
  now?: () => number;
  /** Simultaneous connections per token. */
  maxConnectionsPerToken?: number;
  /** How often usage is written. */
  flushIntervalMs?: number;
  /** Traffic claimed per lease. */
  leaseBytes?: number;
  /** A gateway silent this long (killed, cut off) has its leases returned by the others. */
  leaseExpiryMs?: number;
  /** A failing upstream is skipped this long by dynamic tokens. */
  exitPenaltyMs?: number;
  /** The copy is stale (not ready) when it was last known to match the database longer ago than this. */
  staleAfterMs?: number;
  /** Totals for the metrics (leases, overshoot, flushes). */
  counters?: GatewayCounters;
  /** Consecutive failed dials that open a pool's circuit (or a pool's country's) in this process (default 5). */
  poolBreakerFailures?: number;
  /** How long an open circuit skips the pool before one trial connection (default 30 s). */
  poolBreakerOpenMs?: number;
} & Pick<TStateCacheOptions, 'pollIntervalMs' | 'listen' | 'onError' | 'secretBox'>;

/**
 * What the protocol engine asks and tells: the state cache (tokens, exits, IP
 * lists), the authorizer over it, the meter with its leases and its flush
 * timer, started and stopped together. The hot path (authorize, findRefusal,
 * record) does not wait for the database, except for one coalesced look at
 * credentials the copy refuses.
 */
export function createGatewayState(options: TGatewayStateOptions) {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const counters = options.counters ?? new GatewayCounters();
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const pools = createPoolRuntime({
    now,
    failures: options.poolBreakerFailures ?? 5,
    openMs: options.poolBreakerOpenMs ?? 30_000,
  });
  const leases = createLeases({
    db: options.db,
    // Each heartbeat reports this process's figures of every loaded pool (pool_health).
    afterBeat: () => reportPoolHealth(),
    leaseBytes: options.leaseBytes ?? 8 * 1024 * 1024,
    expiryMs: options.leaseExpiryMs,
    onError,
    counters,
  });
  const cache = createStateCache({ ...options, onError, onToken: (row) => leases.onToken(row) });
  // Whether the last report had rows: a gateway that never loaded a pool writes nothing.
  let hasReported = false;
  async function reportPoolHealth(): Promise<void> {
    const rows = pools.health(cache.pools());
    if (rows.length === 0 && !hasReported) return;
    await writePoolHealth(options.db, leases.instanceId, rows);
    hasReported = rows.length > 0;
  }
  const tokenAuthorizer = createAuthorizer({
    cache,
    leases,
    now,
    maxConnectionsPerToken: options.maxConnectionsPerToken ?? 200,
    exitPenaltyMs: options.exitPenaltyMs ?? 60_000,
  });
  // A traffic token's grant carries its purse. Without a lease in hand, the answer waits for the claim: a token whose
  // allowance is all handed out is refused before its connection carries a byte.
  const withPurse = (result: TGrant | TRefusal): TGrant | TRefusal | Promise<TGrant | TRefusal> => {
    if (typeof result === 'string') return result;
    const token = cache.tokenById(result.tokenId);
    const purse = token ? leases.purseOf(token) : null;
    result.purse = purse;
    if (purse === null || purse.left > 0) return result;
    return new Promise((resolve) => purse.wait(() => resolve(purse.isExhausted ? 'token-exhausted' : result)));
  };
  const authorizer: TAuthorizer = {
    authorize(input) {
      const result = tokenAuthorizer.authorize(input);
      return result instanceof Promise ? result.then(withPurse) : withPurse(result);
    },
    findRefusal: (tokenId, sourceIp, admittedAs) => tokenAuthorizer.findRefusal(tokenId, sourceIp, admittedAs),
  };
  const sessions = createStickySessions({ now });
  const claims = createExitClaims({ db: options.db, now, onError: (err) => onError(err, 'exit-claims') });
  const { meter, flush: flushUsage, pendingTokens } = createMeter({ db: options.db, cache, leases, now, sessions });
  const usageLog = createUsageLog({ db: options.db, cache });
  // Metered bytes and the usage log's rows, each its own batch: one failing does not hold the other back.
  async function flush(): Promise<void> {
    const [usage, log] = await Promise.allSettled([flushUsage(), usageLog.flush()]);
    if (usage.status === 'rejected') throw usage.reason;
    if (log.status === 'rejected') throw log.reason;
  }

  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | null = null;

  return {
    authorizer,
    meter,
    /** This process's view of the upstream pools (the protocol engine's dials use it). */
    pools,
    /** The session hold report's records (written with the usage batches). */
    sessions,
    /** Exits claimed by an account's live sticky sessions. */
    claims,
    /** Writes this process's pool figures now (the heartbeat does every few seconds). */
    reportPoolHealth,
    /** What the connection registry tells the per-connection usage log. */
    usageLog: usageLog.sink,
    /** Loads everything, then follows changes and flushes usage on a timer. */
    async start(): Promise<void> {
      await leases.start();
      await cache.start();
      flushTimer = setInterval(() => {
        flushing ??= flush()
          .then(() => {
            counters.flushes.ok += 1;
          })
          .catch((err) => {
            counters.flushes.failed += 1;
            onError(err, 'flush');
          })
          .finally(() => (flushing = null));
      }, options.flushIntervalMs ?? 2000);
      flushTimer.unref();
    },
    /** Reloads now (tests; the cache follows changes by itself). */
    sync: (force = false) => cache.sync(force),
    /** Resolves once a sync that began after this call has applied the database's version (embedded mode: before the API answers). */
    refresh: () => cache.refresh(),
    /** The version of the database this copy has applied. */
    appliedVersion: () => cache.appliedVersion(),
    /** How long ago (seconds) the copy was last known to match the database (Infinity before the first load). */
    stateAgeSeconds: () => cache.freshness().ageMs / 1000,
    /** Whether the copy is loaded and fresh (readiness), and why not. */
    health(): { isReady: boolean; reason?: string } {
      const { isLoaded, ageMs } = cache.freshness();
      if (!isLoaded) return { isReady: false, reason: 'state not loaded yet' };
      if (ageMs > staleAfterMs)
        return {
          isReady: false,
          reason: `state stale: last matched the database ${Math.round(ageMs / 1000)} s ago (bound ${staleAfterMs / 1000} s)`,
        };
      return { isReady: true };
    },
    /** Writes pending usage now. */
    flush,
    /** Stops the timers, writes what is pending and gives back unspent leases. */
    async stop(): Promise<void> {
      clearInterval(flushTimer);
      await cache.stop();
      await flushing;
      // The last usage must not be lost to a moment's database trouble: a failed flush is tried again a few times.
      for (let attempt = 1; ; attempt++) {
        try {
          await flush();
          break;
        } catch (error) {
          if (attempt >= STOP_FLUSH_ATTEMPTS) throw error;
          onError(error, 'flush');
          await new Promise((resolve) => setTimeout(resolve, STOP_FLUSH_RETRY_MS));
        }
      }
      await leases.returnAll();
    },
    /** For tests and diagnostics. */
    stats: () => ({ ...cache.stats(), pendingTokens: pendingTokens(), usageLog: usageLog.stats() }),
  };
}

/** The gateway's state type. */
export type TGatewayState = ReturnType<typeof createGatewayState>;
