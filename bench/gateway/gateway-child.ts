import { writeHeapSnapshot } from 'node:v8';
import { inArray, sql } from 'drizzle-orm';
import { exitNodes, migrateDb, openDb, pools, proxyTokens, tokenUsage, usageLogSettings, users } from '@proxy/db';
import { startGateway } from '@proxy/gateway';
import { serveParent } from './ipc';
import { BENCH_PASSWORD, BENCH_POOL, BENCH_TOKENS, CAP_BYTES, CAP_LEASE_BYTES } from './jobs';

/**
 * The full gateway under test, in its own process: PGlite made from the committed
 * migrations, one user, one direct exit node, the loopback pool (argv `pool=<port>`, enabled, serving
 * BENCH_POOL.country, where no exit is) and the benchmark's tokens, then
 * startGateway exactly as `npm start` runs it (token store polling the version
 * row, usage flushed in batches), loopback targets allowed.
 */

const handle = await openDb();
await migrateDb(handle);
const { db } = handle;
const [user] = await db
  .insert(users)
  .values({ username: 'bench', email: 'bench@example.com', apiKey: 'pk_bench_gateway', inviteCode: 'BENCHGW' })
  .returning({ id: users.id });
// BENCH_USAGE_LOG=1: the bench user keeps the per-connection usage log (one row per connection closed).
if (process.env.BENCH_USAGE_LOG === '1')
  await db.insert(usageLogSettings).values({ userId: user.id, enabled: true, retentionDays: 1 });
const [exit] = await db
  .insert(exitNodes)
  .values({ kind: 'residential', egress: 'direct', country: 'us' })
  .returning({ id: exitNodes.id });
const poolPort = Number(process.argv.find((a) => a.startsWith('pool='))?.slice(5));
if (poolPort > 0)
  await db.insert(pools).values({
    name: 'bench pool',
    kind: 'residential',
    protocol: 'http-connect',
    endpoints: [{ host: '127.0.0.1', port: poolPort }],
    username: BENCH_POOL.user,
    // A plain password is used as it is (the API seals them; the gateway opens either).
    password: BENCH_POOL.password,
    usernameTemplate: BENCH_POOL.template,
    coverageMode: 'list',
    coverage: [{ country: BENCH_POOL.country, state: '', city: '' }],
    maxConnections: 100_000,
    status: 'enabled',
  });
// The same loopback proxy as an upstream exit, its username written out (no session: a new exit per connection).
const [upstreamExit] =
  poolPort > 0
    ? await db
        .insert(exitNodes)
        .values({
          kind: 'residential',
          egress: 'http',
          host: '127.0.0.1',
          port: poolPort,
          username: `user-${BENCH_POOL.user}-country-${BENCH_POOL.country}`,
          password: BENCH_POOL.password,
          country: 'fr',
        })
        .returning({ id: exitNodes.id })
    : [exit];
const tokenIds: Record<string, number> = {};
for (const [key, t] of Object.entries(BENCH_TOKENS)) {
  const isPool = key === 'poolHttp';
  const isPoolExit = key === 'poolExitHttp';
  const isMeter = key.startsWith('meter') || key.startsWith('soak') || key.startsWith('traffic') || isPoolExit;
  const isCapped = key.startsWith('cap');
  const [row] = await db
    .insert(proxyTokens)
    .values({
      userId: user.id,
      product: isPool ? 'dynamic' : 'static',
      category: 'isp',
      // Metering and soak tokens are traffic tokens, so the lease path is exercised too.
      billing: isMeter || isCapped || isPool ? 'traffic' : 'ip',
      trafficLimitBytes: isCapped ? CAP_BYTES : isMeter || isPool ? 1000 * 1024 ** 3 : null,
      network: t.network,
      country: isPool ? BENCH_POOL.country : 'us',
      username: t.username,
      password: BENCH_PASSWORD,
      exitNodeId: isPool ? null : isPoolExit ? upstreamExit.id : exit.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: proxyTokens.id });
  tokenIds[key] = row.id;
}
await db.execute(sql`UPDATE gateway_state SET version = version + 1 WHERE id = 1`);

const gateway = await startGateway({
  db,
  host: '127.0.0.1',
  port: 0,
  policy: { allowPrivateTargets: true, echoUrls: [] },
  // The idle-tunnel scenario holds thousands of connections of one token.
  maxConnectionsPerToken: 100_000,
  leaseBytes: CAP_LEASE_BYTES,
  onError: (error, where) => console.error(`gateway ${where}:`, error),
});

serveParent(
  { port: gateway.port, tokenIds },
  {
    /** Collects garbage, then answers the process's memory figures. */
    gc: () => {
      globalThis.gc?.();
      return process.memoryUsage();
    },
    /** Writes a heap snapshot (profiling the idle-tunnel memory). */
    heapSnapshot: (request) => writeHeapSnapshot(request.file as string),
    connections: () => gateway.connectionCount(),
    /** Metered bytes of some tokens after everything pending is written. */
    async usage(request) {
      const ids = request.tokenIds as number[];
      await gateway.store.flush();
      // A timer flush may be writing meanwhile: let it finish, then flush once more.
      await new Promise((r) => setTimeout(r, 2500));
      await gateway.store.flush();
      const used = await db
        .select({ id: proxyTokens.id, used: proxyTokens.trafficUsedBytes })
        .from(proxyTokens)
        .where(inArray(proxyTokens.id, ids));
      const buckets = await db
        .select({ id: tokenUsage.tokenId, bytes: sql<string>`sum(${tokenUsage.bytes})` })
        .from(tokenUsage)
        .where(inArray(tokenUsage.tokenId, ids))
        .groupBy(tokenUsage.tokenId);
      return ids.map((id) => ({
        tokenId: id,
        trafficUsedBytes: used.find((u) => u.id === id)?.used ?? 0,
        tokenUsageBytes: Number(buckets.find((b) => b.id === id)?.bytes ?? 0),
      }));
    },
  },
);

process.once('SIGTERM', () => {
  void gateway
    .close()
    .then(() => handle.close())
    .finally(() => process.exit(0));
});
