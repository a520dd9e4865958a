import path from 'node:path';
import { migrateDb, openDb } from '@proxy/db';
import { startGateway, type TGateway } from '@proxy/gateway';
import { loadServerConfig } from './config/env';
import { buildApp } from './app';
import { runStartupTasks } from './features/startup';
import { createServerJobRunner } from './jobs/token-jobs';

// host:port of a URL as the gateway's target rules compare it.
function echoEndpointOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname.replace(/^\[|\]$/g, '')}:${parsed.port || (parsed.protocol === 'https:' ? 443 : 80)}`;
}

// One process: API and console on PORT, gateway on GATEWAY_PORT when embedded.
let config;
try {
  config = loadServerConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const database = await openDb(
  config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.DATA_DIR, 'pg') },
);
await migrateDb(database);
const { app, deps } = await buildApp({ config, database });
await runStartupTasks(deps);
await app.listen({ host: config.HOST, port: config.PORT });
app.log.info(`console and API on ${config.publicUrl} (database: ${database.kind}, mail: ${deps.mailer.describe})`);

const jobs = createServerJobRunner(deps);
if (config.JOBS_ENABLED) jobs.start();

let gateway: TGateway | undefined;
if (config.isGatewayEmbedded) {
  // Embedded mode shares the database handle; the gateway reads it only off the hot path.
  gateway = await startGateway({
    db: database.db,
    host: config.HOST,
    port: config.GATEWAY_PORT,
    policy: {
      allowPrivateTargets: config.GATEWAY_ALLOW_PRIVATE_TARGETS,
      // The proxy test fetches the API's own echo endpoint through the gateway (TOKEN_TEST_ECHO_URL may name it otherwise).
      allowedEndpoints: [`${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`, echoEndpointOf(config.tokenTestEchoUrl)],
    },
    maxConnectionsPerToken: config.GATEWAY_MAX_CONNECTIONS_PER_TOKEN,
    idleTimeoutMs: config.GATEWAY_IDLE_TIMEOUT_S * 1000,
    leaseBytes: config.GATEWAY_LEASE_BYTES,
    onError: (error, where) => app.log.error({ err: error }, `gateway ${where} failed`),
  });
  app.log.info(`gateway on ${config.HOST}:${gateway.port}`);
}

let isStopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (isStopping) return;
    isStopping = true;
    void (async () => {
      await jobs.stop();
      await gateway?.close();
      await app.close();
      await database.close();
      process.exit(0);
    })();
  });
}
