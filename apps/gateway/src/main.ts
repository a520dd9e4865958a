import { startGateway } from './index';

// Standalone gateway (production): `npm run start:gateway` with DATABASE_URL.
const port = Number(process.env.GATEWAY_PORT ?? 7777);
const host = process.env.GATEWAY_HOST ?? '0.0.0.0';
const gateway = await startGateway({ host, port });
console.log(`gateway listening on ${host}:${gateway.port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void gateway.close().then(() => process.exit(0));
  });
}
