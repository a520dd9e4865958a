import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from './index';
import { createTestDatabase, insertExit, insertToken, insertUser, startOrigin } from '../test/fixtures';
import { viaProxy } from '../test/proxy-clients';

const KiB = 1024;

/** The sum of the samples of `name` in the exposition text whose labels include `labels`. */
function valueIn(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

/** A loopback port nothing listens on (a destination that refuses). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The gateway's metrics (metrics.ts) as its listener serves them, and its readiness.
describe('gateway metrics and readiness', () => {
  let handle: TDbHandle;
  let gateway: TGateway;
  let origin: Awaited<ReturnType<typeof startOrigin>>;

  beforeAll(async () => {
    handle = await createTestDatabase();
    origin = await startOrigin();
    const userId = await insertUser(handle.db);
    const exitNodeId = await insertExit(handle.db, { egress: 'direct', country: 'us' });
    await insertToken(handle.db, { userId, username: 'mhttp', exitNodeId });
    await insertToken(handle.db, { userId, username: 'msocks', exitNodeId, network: 'SOCKS5' });
    await insertToken(handle.db, {
      userId,
      username: 'mtraffic',
      exitNodeId,
      billing: 'traffic',
      trafficLimitBytes: 100 * 1024 * KiB,
    });
    gateway = await startGateway({
      db: handle.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      pollIntervalMs: 50,
      flushIntervalMs: 100,
      sampleIntervalMs: 50,
      leaseBytes: 64 * KiB,
      // A heartbeat every 100 ms: an idle token's unspent lease goes back soon.
      leaseExpiryMs: 600,
      staleAfterMs: 500,
    });
  });
  afterAll(async () => {
    // The last test closed the database: the final flush cannot be written.
    await gateway?.close().catch(() => {});
    origin?.close();
  });

  const text = () => gateway.metrics.text();
  const get = (username: string, via: 'http' | 'connect' | 'socks5', url: string, password = 'secret') =>
    viaProxy({ proxyPort: gateway.port, username, password, url, via });

  it('counts connections by protocol, bytes, refusals by reason, dials by egress kind, leases', async () => {
    const before = await text();
    const bytesUrl = `http://127.0.0.1:${origin.port}/bytes/${20 * KiB}`;
    expect((await get('mhttp', 'http', bytesUrl)).status).toBe(200);
    expect((await get('msocks', 'socks5', bytesUrl)).status).toBe(200);
    expect((await get('mtraffic', 'connect', bytesUrl)).status).toBe(200);
    expect((await get('mhttp', 'connect', bytesUrl, 'wrong')).status).toBe(407);
    expect((await get('mhttp', 'socks5', bytesUrl)).socksReply).toBe(2);
    const refused = await get('mhttp', 'connect', `http://127.0.0.1:${await closedPort()}/`);
    expect([refused.status, refused.reason]).toEqual([502, 'upstream-failed']);
    const delta = (after: string, name: string, labels: Record<string, string> = {}) =>
      valueIn(after, name, labels) - valueIn(before, name, labels);
    await expect
      .poll(async () => {
        const after = await text();
        return {
          http: delta(after, 'proxy_gateway_connections_accepted_total', { protocol: 'http' }),
          connect: delta(after, 'proxy_gateway_connections_accepted_total', { protocol: 'connect' }),
          socks5: delta(after, 'proxy_gateway_connections_accepted_total', { protocol: 'socks5' }),
          down: delta(after, 'proxy_gateway_bytes_total', { direction: 'down' }) >= 3 * 20 * KiB,
          badCredentials: delta(after, 'proxy_gateway_refusals_total', { reason: 'bad-credentials' }),
          wrongProtocol: delta(after, 'proxy_gateway_refusals_total', { reason: 'wrong-protocol' }),
          upstreamFailed: delta(after, 'proxy_gateway_refusals_total', { reason: 'upstream-failed' }),
          dialed: delta(after, 'proxy_gateway_dial_seconds_count', { egress: 'direct' }),
          dialFailures: delta(after, 'proxy_gateway_dial_failures_total', { egress: 'direct' }),
          claims: delta(after, 'proxy_gateway_lease_claims_total', { outcome: 'granted' }) >= 1,
          claimed: delta(after, 'proxy_gateway_lease_claimed_bytes_total') >= 64 * KiB,
          // The traffic token is idle after its request: what it holds unspent goes back.
          returned: delta(after, 'proxy_gateway_lease_returns_total', { reason: 'idle' }) >= 1,
          open: valueIn(after, 'proxy_gateway_connections_open'),
        };
      })
      .toEqual({
        http: 1,
        connect: 3,
        socks5: 2,
        down: true,
        badCredentials: 1,
        wrongProtocol: 1,
        upstreamFailed: 1,
        dialed: 3,
        dialFailures: 1,
        claims: true,
        claimed: true,
        returned: true,
        open: 0,
      });
  });

  it('is ready while its copy is fresh; once the database is gone, names the database and then the stale copy', async () => {
    expect(await gateway.readiness()).toEqual({
      status: 'ready',
      checks: { state: { status: 'ok' }, database: { status: 'ok' } },
      reasons: [],
    });
    expect(valueIn(await text(), 'proxy_gateway_state_ready')).toBe(1);
    await handle.close();
    await expect
      .poll(async () => (await gateway.readiness()).reasons.map((r) => r.replace(/:.*/, '')))
      .toEqual(['state', 'database']);
    const readiness = await gateway.readiness();
    expect(readiness.status).toBe('not_ready');
    expect(readiness.reasons[0]).toMatch(/^state: state stale: last matched the database \d+ s ago \(bound 0.5 s\)$/);
    expect(readiness.reasons[1]).toMatch(/^database: not reachable: /);
    expect(valueIn(await text(), 'proxy_gateway_state_ready')).toBe(0);
    expect(valueIn(await text(), 'proxy_gateway_state_age_seconds')).toBeGreaterThan(0.5);
  });
});
