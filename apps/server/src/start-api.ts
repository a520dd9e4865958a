import type { FastifyInstance } from 'fastify';
import type { TDbHandle } from '@proxy/db';
import type { TServerConfig } from './config/env';
import { buildApp } from './app';
import type { TDeps } from './lib/deps';
import type { TReadiness } from '@proxy/contract';
import { checkReadiness } from './features/system/health.service';
import { runStartupTasks } from './features/startup';
import { createServerJobRunner } from './jobs/token-jobs';
import { createInventoryProbeRunner } from './features/inventory/inventory-probe.job';
import { createWebhookRunner } from './features/webhooks/webhooks.jobs';

/** A running API: the HTTP server, its dependencies and its jobs. */
export type TApi = {
  app: FastifyInstance;
  deps: TDeps;
  /** Its metrics, as the exposition text (the launcher serves them on METRICS_LISTEN). */
  metrics: { text(): Promise<string>; contentType: string };
  /** Its readiness (GET /api/health/ready). */
  readiness(): Promise<TReadiness>;
  close(): Promise<void>;
};

/**
 * Starts the API on a migrated database: start-up tasks (operator, prices,
 * direct exits), the HTTP listener, and the lifecycle jobs when enabled.
 * The database belongs to the caller (the launcher), which closes it.
 */
export async function startApi(options: {
  config: TServerConfig;
  database: TDbHandle;
  gatewayApplied?: () => Promise<void>;
  gatewayHealth?: TDeps['gatewayHealth'];
}): Promise<TApi> {
  const { config, database } = options;
  const { app, deps } = await buildApp({
    config,
    database,
    gatewayApplied: options.gatewayApplied,
    gatewayHealth: options.gatewayHealth,
  });
  await runStartupTasks(deps);
  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`console and API on ${config.publicUrl} (database: ${database.kind}, mail: ${deps.mailer.describe})`);
  const jobs = createServerJobRunner(deps);
  if (config.JOBS_ENABLED) jobs.start();
  // The inventory probe runs on its own timer: a slow pass through dead upstreams never delays the lifecycle jobs.
  const probe = createInventoryProbeRunner(deps);
  if (config.JOBS_ENABLED && config.INVENTORY_PROBE_INTERVAL_S > 0) probe.start();
  // Webhook deliveries on their own timer too: a slow receiver never delays the lifecycle jobs.
  const webhooks = createWebhookRunner(deps);
  if (config.JOBS_ENABLED) webhooks.start();
  return {
    app,
    deps,
    metrics: { text: () => deps.metrics.text(), contentType: deps.metrics.contentType },
    readiness: () => checkReadiness(deps),
    async close() {
      await jobs.stop();
      await probe.stop();
      await webhooks.stop();
      await app.close();
    },
  };
}
