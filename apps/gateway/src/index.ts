import type net from 'node:net';
import { GatewayCounters } from './gateway-counters';
import type { TGatewayOptions } from './gateway-options';
import { createGatewayServer } from './gateway-server';
import { createGatewayState, type TGatewayState } from './gateway-state';
import { createGatewayMetrics, type TGatewayMetrics } from './metrics';
import { checkGatewayReadiness, type TGatewayReadiness } from './readiness';

export { REFUSALS, type TRefusal } from './refusals';
export { createWorkerLimiter, serveWorkerLimits, type TConnectionLimiter } from './connection-limits';
export type { TTargetPolicy } from './target-policy';
export { createStateCache, type TStateCache } from './state-cache';
export { ZGatewaySettings, loadGatewaySettings, gatewayOptionsOf, type TGatewaySettings } from './settings';
export type { TGatewayOptions } from './gateway-options';
export type { TGatewayMetrics } from './metrics';
export type { TGatewayReadiness } from './readiness';
export { serveClusterWorker, startClusterMetrics, type TClusterMetrics } from './cluster-metrics';

/** A running gateway. */
export type TGateway = {
  port: number;
  /** The state: in-memory copy, authorizer, meter (refresh, appliedVersion, flush, stats). */
  store: TGatewayState;
  /** Open client connections. */
  connectionCount(): number;
  /** Its metrics (Prometheus text). */
  metrics: TGatewayMetrics;
  /** Readiness: the state loaded and fresh, the database reachable. */
  readiness(): Promise<TGatewayReadiness>;
  /**
   * A clean stop: stops accepting, lets open connections run until they end or the drain deadline
   * (`drainMs`) passes, closes the rest, writes every metered byte and gives back unspent leases.
   */
  close(): Promise<void>;
};

/**
 * Starts the proxy gateway: loads tokens, exit nodes and IP lists into memory,
 * listens for HTTP forward, CONNECT and SOCKS5 on one port, meters usage in batches.
 */
export async function startGateway(options: TGatewayOptions): Promise<TGateway> {
  const counters = new GatewayCounters();
  const store = createGatewayState({ ...options, counters });
  await store.start();
  const engine = createGatewayServer({
    authorizer: store.authorizer,
    meter: store.meter,
    usageLog: store.usageLog,
    policy: options.policy,
    idleTimeoutMs: options.idleTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs,
    sampleIntervalMs: options.sampleIntervalMs,
    limiter: options.limiter,
    counters,
    dialTries: options.dialTries,
    pools: store.pools,
    sessions: store.sessions,
    claims: store.claims,
  });
  const metrics = createGatewayMetrics({
    counters,
    state: store,
    connectionCount: engine.connectionCount,
    defaultMetrics: options.defaultMetrics ?? true,
    pool: options.dbPool,
  });
  await new Promise<void>((resolve, reject) => {
    engine.server.once('error', reject);
    // A deep accept queue: thousands of clients may connect at once (the kernel caps it at somaxconn).
    engine.server.listen({ port: options.port, host: options.host, backlog: 4096 }, () => resolve());
  });
  const { port } = engine.server.address() as net.AddressInfo;
  return {
    port,
    store,
    connectionCount: engine.connectionCount,
    metrics,
    readiness: () => checkGatewayReadiness(options.db, store),
    async close() {
      // Close connections first (their last bytes are sampled), then write usage: nothing is lost on a clean stop.
      await engine.close(options.drainMs ?? 0);
      await store.stop();
    },
  };
}
