import path from 'node:path';
import { migrateDb, openDb } from '@proxy/db';
import { startGateway, type TGateway } from '@proxy/gateway';
import { loadServerConfig } from './config/env';
import { buildApp } from './app';
import { runStartupTasks } from './features/startup';

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

let gateway: TGateway | undefined;
if (config.isGatewayEmbedded) {
  gateway = await startGateway({ host: config.HOST, port: config.GATEWAY_PORT });
  app.log.info(`gateway on ${config.HOST}:${gateway.port}`);
}

let isStopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (isStopping) return;
    isStopping = true;
    void (async () => {
      await gateway?.close();
      await app.close();
      await database.close();
      process.exit(0);
    })();
  });
}
