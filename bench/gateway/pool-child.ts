import { startFakePool } from '@proxy/db/testing';
import { serveParent } from './ipc';
import { BENCH_POOL } from './jobs';

/**
 * A loopback upstream pool for the pool scenario, in its own process (its CPU is not the gateway's): the fake pool of
 * the suites, HTTP CONNECT, serving the benchmark's pool country; each tunnel leaves from a loopback address.
 */
const pool = await startFakePool({
  protocol: 'http-connect',
  template: BENCH_POOL.template,
  user: BENCH_POOL.user,
  password: BENCH_POOL.password,
  areas: [{ country: BENCH_POOL.country }],
});
// Tunnels are not kept for inspection here: a long run would hold them all.
setInterval(() => pool.tunnels.splice(0), 1000).unref();

serveParent({ port: pool.port }, { stats: () => pool.stats() });
process.once('SIGTERM', () => void pool.close().finally(() => process.exit(0)));
