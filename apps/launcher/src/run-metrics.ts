import cluster from 'node:cluster';
import { serveClusterWorker, startClusterMetrics, type TGateway, type TGatewaySettings } from '@proxy/gateway';
import type { TApi, TServerConfig } from '@proxy/server';
import { metricsUrl, startMetricsListener } from './metrics-listener';

/**
 * The metrics listeners of the run modes: the API's on METRICS_LISTEN (with an
 * embedded gateway's metrics beside its own), a standalone gateway's on
 * GATEWAY_METRICS_LISTEN, and a clustered gateway's in its primary, for all
 * its workers (which listen on no metrics port; each answers the primary).
 */

/** The API's listener, or undefined when METRICS_LISTEN is off. */
export async function startApiMetrics(
  config: TServerConfig,
  api: TApi,
  embedded: TGateway | undefined,
): Promise<{ close(): Promise<void> } | undefined> {
  const listen = config.METRICS_LISTEN;
  if (!listen) return undefined;
  const listener = await startMetricsListener({
    listen,
    token: config.METRICS_TOKEN,
    setting: 'METRICS_LISTEN',
    source: {
      // The two registries are apart (the process's own metrics are the API's), so their texts simply follow each other.
      text: async () => (await api.metrics.text()) + (embedded ? await embedded.metrics.text() : ''),
      contentType: api.metrics.contentType,
      readiness: () => api.readiness(),
    },
    onError: (error) => api.app.log.error({ err: error }, 'metrics scrape failed'),
  });
  api.app.log.info(`metrics on ${metricsUrl(listen, listener.port)}`);
  return listener;
}

/** A standalone gateway's listener (none in a cluster's worker: it answers its primary instead). */
export async function startGatewayMetrics(
  settings: TGatewaySettings,
  gateway: TGateway,
): Promise<{ close(): Promise<void> }> {
  if (cluster.isWorker) {
    const stop = serveClusterWorker(gateway);
    return { close: async () => stop() };
  }
  const listen = settings.GATEWAY_METRICS_LISTEN;
  if (!listen) return { close: async () => {} };
  const listener = await startMetricsListener({
    listen,
    token: settings.GATEWAY_METRICS_TOKEN,
    setting: 'GATEWAY_METRICS_LISTEN',
    source: { text: gateway.metrics.text, contentType: gateway.metrics.contentType, readiness: gateway.readiness },
    onError: (error) => console.error('gateway metrics scrape failed:', error),
  });
  console.log(`gateway metrics on ${metricsUrl(listen, listener.port)}`);
  return listener;
}

/** A clustered gateway's primary: its workers' metrics aggregated, and their readiness. */
export async function startPrimaryMetrics(settings: TGatewaySettings): Promise<{ close(): Promise<void> }> {
  const workers = startClusterMetrics();
  const listen = settings.GATEWAY_METRICS_LISTEN;
  if (!listen) {
    workers.close();
    return { close: async () => {} };
  }
  const listener = await startMetricsListener({
    listen,
    token: settings.GATEWAY_METRICS_TOKEN,
    setting: 'GATEWAY_METRICS_LISTEN',
    source: workers,
    onError: (error) => console.error('gateway metrics scrape failed:', error),
  });
  console.log(`gateway metrics on ${metricsUrl(listen, listener.port)} (workers aggregated)`);
  return {
    async close() {
      await listener.close();
      workers.close();
    },
  };
}

/** A run that also stops its metrics listener first. */
export function withMetrics<T extends { close(): Promise<void> }>(running: T, metrics: { close(): Promise<void> }): T {
  return {
    ...running,
    async close() {
      // The probes and metrics answer while the workers drain.
      await running.close();
      await metrics.close();
    },
  };
}
