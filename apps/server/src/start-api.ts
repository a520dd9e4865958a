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
  /**
   * A clean stop: stops accepting connections at once; the requests in flight and the job pass in progress get
   * SHUTDOWN_GRACE_S to finish, then the connections still open are closed and the pass is abandoned.
   */
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
  let isDraining = false;
  // While draining, every answer closes its connection: a kept-alive client would otherwise hold the stop open
  // until its keep-alive timeout, and its next request goes to another instance.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isDraining) reply.header('connection', 'close');
    done(null, payload);
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
      isDraining = true;
      // Stop listening now (idle kept-alive connections close with it); the callback comes once every connection
      // has ended. Fastify's close() below then finds the listener closed and runs its onClose hooks.
      const connectionsEnded = new Promise<void>((resolve) => app.server.close(() => resolve()));
      const jobsStopped = Promise.all([jobs.stop(), probe.stop(), webhooks.stop()]);
      const graceMs = config.SHUTDOWN_GRACE_S * 1000;
      app.log.info(`draining: no new connections; requests in flight and jobs have ${config.SHUTDOWN_GRACE_S} s`);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'over'>((resolve) => {
        timer = setTimeout(() => resolve('over'), graceMs);
      });
      const [connections, jobPass] = await Promise.all([
        Promise.race([connectionsEnded, graceOver]),
        Promise.race([jobsStopped, graceOver]),
      ]);
      clearTimeout(timer);
      if (connections === 'over') {
        app.log.warn('grace period over: closing the connections still open');
        app.server.closeAllConnections();
      }
      // An abandoned pass is safe: each row is its own transaction, rolled back if the database goes first.
      if (jobPass === 'over') app.log.warn('grace period over: the job pass in progress is abandoned');
      await app.close();
      app.log.info('stopped');
    },
  };
}
