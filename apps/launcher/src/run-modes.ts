import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { zSettingText } from '@proxy/contract';
import { migrateDb, openDb } from '@proxy/db';
import {
  createWorkerLimiter,
  gatewayOptionsOf,
  loadGatewaySettings,
  serveWorkerLimits,
  startGateway,
  type TGateway,
  type TGatewaySettings,
} from '@proxy/gateway';
import { loadServerConfig, startApi, type TApi, type TServerConfig } from '@proxy/server';
import { startApiMetrics, startGatewayMetrics, startPrimaryMetrics, withMetrics } from './run-metrics';

/** Settings that choose what a run starts (the API's and the gateway's own settings live in their apps). */
export const ZLaunchSettings = z.object({
  /** Run the gateway inside the API process: auto (only on the embedded database), true, false. */
  GATEWAY_EMBEDDED: z.enum(['auto', 'true', 'false']).default('auto'),
  /** postgres:// URL of the shared database (required by a standalone gateway). */
  DATABASE_URL: zSettingText,
});

/** Something started by a run mode; main.ts turns signals into these calls. */
export type TRunning = {
  /** SIGTERM, SIGINT: a clean stop (drains, writes what is pending, gives back what it holds); then the process exits 0. */
  close(): Promise<void>;
  /** SIGHUP, where a run mode handles it: a clustered gateway replaces its workers one at a time. */
  reload?(): Promise<void>;
};

function parseLaunchSettings(env: NodeJS.ProcessEnv) {
  const parsed = ZLaunchSettings.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  return parsed.data;
}

/** What the gateway must reach on the API's own listener: the proxy test's echo (a GET of its path, nothing else). */
export function echoUrlsFor(config: TServerConfig): string[] {
  return config.tokenTestEchoUrl.startsWith('http://') ? [config.tokenTestEchoUrl] : [];
}

/**
 * `npm run start:server` (and `npm start`): the API and console; on the
 * embedded database (or GATEWAY_EMBEDDED=true) the gateway runs in the same
 * process and shares the database handle, since PGlite admits one process.
 */
export async function runServer(env: NodeJS.ProcessEnv = process.env): Promise<TRunning> {
  const launch = parseLaunchSettings(env);
  const gatewaySettings = loadGatewaySettings(env);
  const isEmbedded = launch.GATEWAY_EMBEDDED === 'true' || (launch.GATEWAY_EMBEDDED === 'auto' && !launch.DATABASE_URL);
  // Embedded, the port customers use is the gateway's own port unless told otherwise; and with no
  // real payment provider configured, the sandbox is on, so a fresh install can be topped up.
  const config = loadServerConfig({
    ...env,
    ...(isEmbedded && !env.GATEWAY_PUBLIC_PORT ? { GATEWAY_PUBLIC_PORT: String(gatewaySettings.GATEWAY_PORT) } : {}),
    ...(isEmbedded &&
    !env.PAY_SANDBOX &&
    !env.ALIPAY_APP_ID &&
    !env.WECHAT_PAY_MCHID &&
    !env.USDT_TRC20_ADDRESS &&
    !env.USDT_ERC20_ADDRESS
      ? { PAY_SANDBOX: 'true' }
      : {}),
  });
  const database = await openDb(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.DATA_DIR, 'pg') },
  );
  await migrateDb(database);
  let gateway: TGateway | undefined;
  // Gateway errors before the API (and its log) is up are kept and logged then.
  const earlyErrors: { error: unknown; where: string }[] = [];
  let reportGatewayError = (error: unknown, where: string): void => {
    earlyErrors.push({ error, where });
  };
  if (isEmbedded) {
    // Started first, so that every change the API answers has been applied by the gateway before the answer.
    gateway = await startGateway(
      gatewayOptionsOf(gatewaySettings, {
        database,
        defaultHost: config.HOST,
        echoUrls: echoUrlsFor(config),
        onError: (error, where) => reportGatewayError(error, where),
        isEmbedded: true,
        dataKey: config.dataEncryptionKey,
      }),
    );
  }
  const embedded = gateway;
  const api: TApi = await startApi({
    config,
    database,
    gatewayApplied: embedded ? () => embedded.store.refresh() : undefined,
    gatewayHealth: embedded ? () => embedded.store.health() : undefined,
  });
  reportGatewayError = (error, where) => api.app.log.error({ err: error }, `gateway ${where} failed`);
  for (const { error, where } of earlyErrors) reportGatewayError(error, where);
  if (embedded) api.app.log.info(`gateway on ${config.HOST}:${embedded.port}`);
  const metrics = await startApiMetrics(config, api, embedded);
  return {
    async close() {
      await metrics?.close();
      await api.close();
      if (gateway) {
        const open = gateway.connectionCount();
        // close() stops accepting before its first await; the line is written once that is true.
        const closing = gateway.close();
        api.app.log.info(drainingText('gateway', open, gatewaySettings.GATEWAY_DRAIN_S));
        await closing;
      }
      await database.close();
    },
  };
}

// What a draining gateway says (the tests wait for it).
function drainingText(who: string, open: number, drainS: number): string {
  return `${who} draining: stopped accepting; ${open} open connections run on for at most ${drainS} s`;
}

/**
 * `npm run start:gateway`: a standalone gateway on the shared PostgreSQL
 * database, in GATEWAY_WORKERS processes (default one per core) sharing one
 * port through Node's cluster module (Node 20 has no reusePort). The primary
 * only forks, restarts a worker that dies and keeps the per-token connection
 * counts; each worker has its own copy, leases and metering, as separate
 * gateways do.
 */
export async function runGateway(env: NodeJS.ProcessEnv = process.env): Promise<TRunning> {
  const launch = parseLaunchSettings(env);
  const settings = loadGatewaySettings(env);
  if (!launch.DATABASE_URL)
    throw new Error(
      'Invalid configuration:\n  DATABASE_URL: a standalone gateway needs the PostgreSQL database of the API',
    );
  const workers = settings.GATEWAY_WORKERS ?? os.availableParallelism();
  if (workers > 1 && cluster.isPrimary) {
    const metrics = await startPrimaryMetrics(settings);
    return withMetrics(
      await runGatewayPrimary(workers, `${settings.GATEWAY_HOST ?? '0.0.0.0'}:${settings.GATEWAY_PORT}`, settings),
      metrics,
    );
  }
  const database = await openDb({ url: launch.DATABASE_URL, poolSize: 4 });
  const gateway = await startGateway({
    ...gatewayOptionsOf(settings, {
      database,
      defaultHost: '0.0.0.0',
      onError: (error, where) => console.error(`gateway ${where}:`, error),
    }),
    limiter: cluster.isWorker ? createWorkerLimiter() : undefined,
  });
  const metrics = await startGatewayMetrics(settings, gateway);
  if (cluster.isWorker) process.send?.({ kind: 'gateway.ready', port: gateway.port });
  else console.log(`gateway listening on ${settings.GATEWAY_HOST ?? '0.0.0.0'}:${gateway.port}`);
  const who = cluster.isWorker ? `gateway worker ${process.pid}` : 'gateway';
  return {
    async close() {
      const open = gateway.connectionCount();
      // close() stops accepting before its first await; the line is written once that is true (a client that reads
      // it and connects is refused, never accepted and then reset).
      const closing = gateway.close();
      console.log(drainingText(who, open, settings.GATEWAY_DRAIN_S));
      await closing;
      // The probes answer while the gateway drains; closed before the database they read.
      await metrics.close();
      await database.close();
      console.log(`${who} stopped: usage written, leases returned`);
    },
    // A worker leaves SIGHUP to its primary (a terminal's hangup reaches the whole group); one process cannot swap itself.
    async reload() {
      if (cluster.isPrimary)
        console.log(
          'SIGHUP ignored: a rolling restart needs GATEWAY_WORKERS of 2 or more; restart the process instead',
        );
    },
  };
}

// A draining worker past its deadline by this much (its last flush, its leases) is killed: a rolling restart never hangs.
const WORKER_STOP_MARGIN_MS = 15_000;

/**
 * The primary of a clustered gateway: forks the workers, replaces one that dies, keeps the per-token connection
 * counts (serveWorkerLimits), and on SIGHUP (reload) replaces its workers one at a time on the same port.
 */
async function runGatewayPrimary(count: number, address: string, settings: TGatewaySettings): Promise<TRunning> {
  const limits = serveWorkerLimits();
  // Workers that are ready and not being replaced; a worker that dies while in this set is replaced.
  const serving = new Set<Worker>();
  let isClosing = false;
  let restart: Promise<void> | null = null;
  const fork = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker = cluster.fork();
      limits.add(worker);
      const onExit = (code: number | null) => reject(new Error(`gateway worker exited (${code}) before it was ready`));
      worker.once('exit', onExit);
      worker.on('message', (message: { kind?: string }) => {
        if (message?.kind !== 'gateway.ready') return;
        worker.off('exit', onExit);
        serving.add(worker);
        // A worker that dies later is replaced (its connection slots were given back).
        worker.once('exit', (code) => {
          if (isClosing || !serving.delete(worker)) return;
          console.error(`gateway worker ${worker.process.pid} exited (${code}); starting another`);
          setTimeout(() => void fork().catch((error: unknown) => console.error(error)), 1000).unref();
        });
        resolve(worker);
      });
    });
  // Drains a worker (SIGTERM: it stops accepting, its tunnels run until they end or GATEWAY_DRAIN_S, it writes its
  // usage and returns its leases) and resolves once it has exited. Its connection slots stay counted until then.
  const retire = (worker: Worker) =>
    new Promise<void>((resolve) => {
      serving.delete(worker);
      if (worker.isDead()) return resolve();
      const kill = setTimeout(
        () => worker.process.kill('SIGKILL'),
        settings.GATEWAY_DRAIN_S * 1000 + WORKER_STOP_MARGIN_MS,
      );
      worker.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      worker.process.kill('SIGTERM');
    });
  // One at a time: the new worker listens (the port stays open through the old ones) before an old one drains.
  async function rollingRestart(): Promise<void> {
    const old = [...serving];
    console.log(`gateway rolling restart: replacing ${old.length} workers one at a time`);
    for (const [i, worker] of old.entries()) {
      if (isClosing) return;
      const fresh = await fork();
      console.log(`gateway worker ${fresh.process.pid} ready; draining worker ${worker.process.pid}`);
      await retire(worker);
      console.log(`gateway worker ${worker.process.pid} exited (${i + 1} of ${old.length} replaced)`);
    }
    console.log('gateway rolling restart done');
  }

  await Promise.all(Array.from({ length: count }, fork));
  console.log(`gateway listening on ${address} (${count} workers)`);
  return {
    reload() {
      if (isClosing) return Promise.resolve();
      if (restart) {
        console.log('gateway rolling restart already under way');
        return restart;
      }
      restart = rollingRestart()
        .catch((error: unknown) =>
          console.error('gateway rolling restart stopped; the workers not replaced serve on:', error),
        )
        .finally(() => (restart = null));
      return restart;
    },
    async close() {
      isClosing = true;
      console.log(`gateway draining: ${Object.keys(cluster.workers ?? {}).length} workers stop accepting`);
      await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => worker && retire(worker)));
      console.log('gateway stopped');
    },
  };
}
