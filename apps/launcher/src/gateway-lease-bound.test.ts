import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { proxyTokens, type TDbHandle } from '@proxy/db';
import { createTestDatabase, describeOnPostgres, insertExit, insertToken, insertUser } from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { download, startEndlessOrigin, type TDownloadVia } from '../test/endless-download';
import { startGatewayProcess, type TGatewayProcess } from '../test/standalone-gateway';

// Small, so that the test is quick; the bound is the same at any size.
const LEASE = 64 * 1024;
const ALLOWANCE = 16 * 1024 * 1024;
const GATEWAYS = 2;
const WORKERS = 2;
const CONNECTIONS = 12;

// Two standalone gateways of two workers each on one PostgreSQL, twelve
// kept-alive connections at full loopback speed (no throttling, an endless
// body): what the clients receive past the allowance is at most one lease per
// process, whatever the speed; then a new connection is refused at once.
describeOnPostgres('a traffic allowance across clustered gateways', () => {
  let db: TDbHandle & { url?: string };
  let origin: Awaited<ReturnType<typeof startEndlessOrigin>>;
  const gateways: { port: number; process: TGatewayProcess }[] = [];
  // One more gateway that carries nothing of the proxy until it is exhausted: its copy of the proxy's row is the stale one.
  let fresh: { port: number; process: TGatewayProcess };
  let tokenId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    origin = await startEndlessOrigin();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    tokenId = await insertToken(db.db, {
      userId,
      username: 'ubound',
      exitNodeId,
      product: 'dynamic',
      billing: 'traffic',
      trafficLimitBytes: ALLOWANCE,
    });
    for (let i = 0; i < GATEWAYS; i++) {
      const port = await freePort();
      const process = await startGatewayProcess(
        {
          DATABASE_URL: db.url,
          GATEWAY_WORKERS: String(WORKERS),
          GATEWAY_PORT: String(port),
          GATEWAY_LEASE_BYTES: String(LEASE),
        },
        `(${WORKERS} workers)`,
      );
      gateways.push({ port, process });
    }
    const port = await freePort();
    fresh = {
      port,
      process: await startGatewayProcess(
        { DATABASE_URL: db.url, GATEWAY_WORKERS: '1', GATEWAY_PORT: String(port), GATEWAY_LEASE_BYTES: String(LEASE) },
        'gateway listening on',
      ),
    };
  });

  afterAll(async () => {
    await Promise.all([...gateways, fresh].filter(Boolean).map((g) => g.process.stop()));
    origin?.close();
    await db?.close();
  });

  const used = async () =>
    (await db.db.select({ used: proxyTokens.trafficUsedBytes }).from(proxyTokens).where(eq(proxyTokens.id, tokenId)))[0]
      .used;
  const vias: TDownloadVia[] = ['http', 'connect'];
  const fetchVia = (i: number, via: TDownloadVia, port = gateways[i % GATEWAYS].port) =>
    download({
      port,
      originPort: origin.port,
      username: 'ubound',
      password: 'secret',
      via,
    });

  it('carries at most one lease per gateway process past the allowance at full speed', async () => {
    const results = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) => fetchVia(i, vias[Math.floor(i / GATEWAYS) % vias.length])),
    );
    const received = results.reduce((sum, r) => sum + r.bytes, 0);
    // Each connection carried traffic, or came after the allowance was all handed out and was refused at once.
    for (const r of results) {
      if (!r.head.includes('HTTP/1.1 200 ')) expect(r.bytes).toBeLessThan(1024);
    }
    expect(results.filter((r) => r.head.includes('HTTP/1.1 200 ')).length).toBeGreaterThan(0);
    expect(received).toBeGreaterThan(ALLOWANCE / 2);
    expect(received).toBeLessThanOrEqual(ALLOWANCE + GATEWAYS * WORKERS * LEASE);

    // The allowance was used up (not refused early), and the meter agrees with the bound.
    await expect.poll(used).toBeGreaterThanOrEqual(ALLOWANCE - GATEWAYS * WORKERS * LEASE);
    expect(await used()).toBeLessThanOrEqual(ALLOWANCE + GATEWAYS * WORKERS * LEASE);
  });

  it('refuses a new connection of the exhausted proxy at once, on every gateway process and protocol', async () => {
    // Exhausted: a new connection, through any gateway (one that never carried the proxy first), over either protocol,
    // is refused before any byte of the origin.
    // A tunnel first: its answer (200 or 403) is decided by admission alone, before any byte would be taken.
    for (const via of ['connect', 'http'] as const) {
      const late = await fetchVia(0, via, fresh.port);
      expect(late.head).toMatch(/^HTTP\/1\.1 403 /);
      expect(late.bytes).toBeLessThan(1024);
    }
    for (let i = 0; i < GATEWAYS * WORKERS * 2; i++) {
      const late = await fetchVia(i, vias[i % vias.length]);
      expect(late.head).toMatch(/^HTTP\/1\.1 403 /);
      expect(late.bytes).toBeLessThan(1024);
    }
  });
});
