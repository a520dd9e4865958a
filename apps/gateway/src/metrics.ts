import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { EGRESS_KINDS, PROTOCOLS, type GatewayCounters } from './gateway-counters';
import type { TGatewayState } from './gateway-state';

/** Dial time buckets, in seconds (a direct TCP connect to an upstream proxy's CONNECT). */
const DIAL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

/** A database pool's counts (pg.Pool). */
export type TPoolCounts = { totalCount: number; idleCount: number; waitingCount: number };

/**
 * The gateway's metrics: one registry per gateway (never prom-client's global
 * one). The data path only adds to plain numbers (gateway-counters.ts); the
 * counters here are set from them when scraped, so a scrape, not a packet,
 * pays for the library. Labels are bounded: protocol, direction, refusal
 * reason, outcome, egress kind; never a token, user, address or exit.
 *
 * `aggregator` says how a clustered gateway's primary combines its workers'
 * values (cluster-metrics.ts): counters and most gauges add up; the state's
 * age is the oldest worker's, and the copy's size is one copy's.
 */
export function createGatewayMetrics(options: {
  counters: GatewayCounters;
  state: TGatewayState;
  connectionCount: () => number;
  /** The process's default metrics (CPU, memory, event loop): off when the API's registry has them (embedded). */
  defaultMetrics: boolean;
  /** The gateway's own database pool (a standalone gateway on PostgreSQL). */
  pool?: TPoolCounts;
}) {
  const { counters, state } = options;
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  new Gauge({
    name: 'proxy_gateway_connections_open',
    help: 'Client connections open',
    registers,
    collect() {
      this.set(options.connectionCount());
    },
  });
  new Counter({
    name: 'proxy_gateway_connections_accepted_total',
    help: 'Client connections accepted, by the protocol their first bytes spoke (http forward, connect, socks5)',
    labelNames: ['protocol'],
    registers,
    collect() {
      this.reset();
      PROTOCOLS.forEach((protocol, i) => this.inc({ protocol }, counters.accepted[i]));
    },
  });
  new Counter({
    name: 'proxy_gateway_bytes_total',
    help: 'Bytes carried and metered, by direction (up: from clients, down: to clients); handshakes and refused requests are not counted',
    labelNames: ['direction'],
    registers,
    collect() {
      this.reset();
      this.inc({ direction: 'up' }, counters.bytesUp);
      this.inc({ direction: 'down' }, counters.bytesDown);
    },
  });
  new Counter({
    name: 'proxy_gateway_refusals_total',
    help: 'Connections refused before carrying traffic, by reason (the X-Proxy-Reason of an HTTP refusal)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(counters.refusals)) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'proxy_gateway_cuts_total',
    help: 'Connections cut while carrying traffic (allowance used up, expiry, disabling, changed credentials), by reason',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(counters.cuts)) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'proxy_gateway_lease_claims_total',
    help: 'Claims of traffic allowance (leases), by outcome (granted, partial, refused: none left, error: the database failed)',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(counters.leaseClaims)) this.inc({ outcome }, count);
    },
  });
  new Counter({
    name: 'proxy_gateway_lease_claimed_bytes_total',
    help: 'Bytes of allowance the lease claims were granted',
    registers,
    collect() {
      this.reset();
      this.inc(counters.leaseClaimedBytes);
    },
  });
  new Counter({
    name: 'proxy_gateway_lease_returns_total',
    help: 'Leases given back unspent, by reason (idle: the token carried nothing for a heartbeat; stop: a clean stop)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(counters.leaseReturns)) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'proxy_gateway_lease_returned_bytes_total',
    help: 'Bytes of allowance given back unspent',
    registers,
    collect() {
      this.reset();
      this.inc(counters.leaseReturnedBytes);
    },
  });
  new Counter({
    name: 'proxy_gateway_allowance_overshoot_bytes_total',
    help: "Bytes carried for traffic tokens past their allowance (metered after the token's last lease claim was refused)",
    registers,
    collect() {
      this.reset();
      this.inc(counters.overshootBytes);
    },
  });
  const dials = new Histogram({
    name: 'proxy_gateway_dial_seconds',
    help: 'Time to reach the destination through an exit, by egress kind (direct, http, socks5 upstream), for dials that succeeded',
    labelNames: ['egress'],
    buckets: DIAL_BUCKETS,
    registers,
  });
  // Label objects made once: a dial allocates none.
  const egressLabels = Object.fromEntries(EGRESS_KINDS.map((egress) => [egress, { egress }]));
  counters.observeDial = (kind, seconds) => dials.observe(egressLabels[kind], seconds);
  new Counter({
    name: 'proxy_gateway_dial_failures_total',
    help: 'Dials through an exit that failed (refused, unreachable, timed out), by egress kind; rule refusals are not counted',
    labelNames: ['egress'],
    registers,
    collect() {
      this.reset();
      for (const egress of EGRESS_KINDS) this.inc({ egress }, counters.dialFailures[egress]);
    },
  });
  new Counter({
    name: 'proxy_gateway_usage_flushes_total',
    help: 'Writes of metered usage (and usage-log rows), by outcome (ok, failed: retried with the same batch)',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      this.inc({ outcome: 'ok' }, counters.flushes.ok);
      this.inc({ outcome: 'failed' }, counters.flushes.failed);
    },
  });
  new Gauge({
    name: 'proxy_gateway_usage_pending_tokens',
    help: 'Tokens with metered bytes not yet written to the database',
    registers,
    collect() {
      this.set(state.stats().pendingTokens);
    },
  });
  new Gauge({
    name: 'proxy_gateway_state_age_seconds',
    help: "Seconds since the gateway's copy of tokens, exits and lists was last known to match the database (its freshness)",
    registers,
    aggregator: 'max',
    collect() {
      this.set(state.stateAgeSeconds());
    },
  });
  new Gauge({
    name: 'proxy_gateway_state_tokens',
    help: "Tokens in the gateway's copy",
    registers,
    aggregator: 'max',
    collect() {
      this.set(state.stats().tokens);
    },
  });
  new Gauge({
    name: 'proxy_gateway_state_ready',
    help: "1 while the gateway's copy is loaded and fresh (its readiness, without the database check)",
    registers,
    aggregator: 'min',
    collect() {
      this.set(state.health().isReady ? 1 : 0);
    },
  });
  const pool = options.pool;
  if (pool) {
    new Gauge({
      name: 'proxy_gateway_db_pool_connections',
      help: "Connections of the gateway's database pool, by state (in_use, idle)",
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'proxy_gateway_db_pool_waiting',
      help: "Queries waiting for a connection of the gateway's pool",
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  return {
    registry,
    /** The exposition text. */
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/** A gateway's metrics. */
export type TGatewayMetrics = ReturnType<typeof createGatewayMetrics>;
