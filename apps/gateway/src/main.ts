import { openDb } from '@proxy/db';
import { loadGatewayEnv } from './config/env';
import { startGateway } from './index';

// Standalone gateway (production): `npm run start:gateway` with DATABASE_URL.
let env;
try {
  env = loadGatewayEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const database = await openDb({ url: env.DATABASE_URL, poolSize: 4 });
const gateway = await startGateway({
  db: database.db,
  host: env.GATEWAY_HOST,
  port: env.GATEWAY_PORT,
  policy: {
    allowPrivateTargets: env.GATEWAY_ALLOW_PRIVATE_TARGETS,
    allowedEndpoints: env.GATEWAY_ALLOWED_ENDPOINTS.split(',').map((e) => e.trim()).filter(Boolean),
  },
  maxConnectionsPerToken: env.GATEWAY_MAX_CONNECTIONS_PER_TOKEN,
  idleTimeoutMs: env.GATEWAY_IDLE_TIMEOUT_S * 1000,
  leaseBytes: env.GATEWAY_LEASE_BYTES,
  onError: (error, where) => console.error(`gateway ${where}:`, error),
});
console.log(`gateway listening on ${env.GATEWAY_HOST}:${gateway.port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void gateway
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
