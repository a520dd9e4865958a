import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { proxyTokens, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from '@proxy/gateway';
import { createTestDatabase, describeOnPglite, insertExit, insertToken, insertUser } from '@proxy/gateway/testing';
import { download, startEndlessOrigin, type TDownloadVia } from '../test/endless-download';

// Small, so that the test is quick; the bound is the same at any size.
const LEASE = 64 * 1024;
const ALLOWANCE = 8 * 1024 * 1024;
const CONNECTIONS = 10;

// The embedded database, as `npm start` runs it: one gateway process on
// PGlite with the default sampling and flush intervals. Ten kept-alive
// connections at full loopback speed carry at most one lease past the
// allowance, for every product that carries a traffic cap; a new connection
// after that is refused at once.
describeOnPglite('a traffic allowance on the embedded database', () => {
  let db: TDbHandle;
  let origin: Awaited<ReturnType<typeof startEndlessOrigin>>;
  let gateway: TGateway;
  let userId: number;
  let residential: number;
  let datacenter: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    origin = await startEndlessOrigin();
    userId = await insertUser(db.db);
    residential = await insertExit(db.db, { egress: 'direct', country: 'us' });
    datacenter = await insertExit(db.db, { egress: 'direct', country: 'us', kind: 'datacenter' });
    gateway = await startGateway({
      db: db.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      leaseBytes: LEASE,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    origin?.close();
    await db?.close();
  });

  const products = [
    { name: 'dynamic residential traffic', product: 'dynamic', category: 'isp', exit: () => residential },
    { name: 'dynamic data-center traffic', product: 'dynamic', category: 'idc', exit: () => datacenter },
    { name: 'static traffic', product: 'static', category: 'isp', exit: () => residential },
  ] as const;

  it.each(products)('$name: at most one lease past the allowance, then new connections refused', async (p) => {
    const username = `uemb${p.product}${p.category}`;
    // The static one speaks SOCKS5: every protocol goes through the same allowance.
    const isSocks = p.product === 'static';
    const tokenId = await insertToken(db.db, {
      userId,
      username,
      exitNodeId: p.product === 'static' ? p.exit() : null,
      product: p.product,
      category: p.category,
      billing: 'traffic',
      network: isSocks ? 'SOCKS5' : 'HTTP',
      trafficLimitBytes: ALLOWANCE,
    });
    await gateway.store.sync(true);
    const fetchVia = (via: TDownloadVia) =>
      download({ port: gateway.port, originPort: origin.port, username, password: 'secret', via });
    const vias: TDownloadVia[] = isSocks ? ['socks5'] : ['http', 'connect'];

    const results = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => fetchVia(vias[i % vias.length])));
    const received = results.reduce((sum, r) => sum + r.bytes, 0);
    // Each connection carried traffic, or came after the allowance was all handed out and was refused at once.
    for (const r of results) {
      if (!r.head.includes('HTTP/1.1 200 ')) expect(r.bytes).toBeLessThan(1024);
    }
    expect(results.filter((r) => r.head.includes('HTTP/1.1 200 ')).length).toBeGreaterThan(0);
    expect(received).toBeLessThanOrEqual(ALLOWANCE + LEASE);

    for (const via of vias) {
      const late = await fetchVia(via);
      // SOCKS5: greeting and authentication answered (4 bytes), then the request refused (a reply code other than 0).
      if (isSocks) expect(late.head.charCodeAt(5)).toBe(2);
      else expect(late.head).toMatch(/^HTTP\/1\.1 403 /);
      expect(late.bytes).toBeLessThan(1024);
    }
    await gateway.store.flush();
    const [row] = await db.db
      .select({ used: proxyTokens.trafficUsedBytes })
      .from(proxyTokens)
      .where(eq(proxyTokens.id, tokenId));
    expect(row.used).toBeGreaterThanOrEqual(ALLOWANCE - LEASE);
    expect(row.used).toBeLessThanOrEqual(ALLOWANCE + LEASE);
  });
});
