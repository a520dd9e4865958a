import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb, proxyTokens, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from '@proxy/gateway';
import {
  createTestDatabase,
  describeOnPostgres,
  insertExit,
  insertToken,
  insertUser,
  startEcho,
} from '@proxy/gateway/testing';
import { startPgCutter } from '../test/pg-cutter';
import { openTunnel } from '../test/standalone-gateway';

// A gateway whose usage flush loses its connection right at COMMIT: the
// commit went through but the gateway never heard so. It keeps the batch and
// sends the same batch (same id) again; the database has its id and skips it,
// so the counters equal the bytes the client moved, exactly once.
describeOnPostgres('usage batches written once when a flush is cut at its commit', () => {
  let db: TDbHandle & { url?: string };
  let cutter: Awaited<ReturnType<typeof startPgCutter>>;
  let gatewayDb: TDbHandle;
  let gateway: TGateway;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let tokenId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    cutter = await startPgCutter(db.url!);
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    tokenId = await insertToken(db.db, {
      userId,
      username: 'ubatch',
      exitNodeId,
      billing: 'traffic',
      trafficLimitBytes: 1_000_000_000,
    });
    gatewayDb = await openDb({ url: cutter.url, poolSize: 2 });
    // Flushed only when the test says (the timer's interval is far away).
    gateway = await startGateway({
      db: gatewayDb.db,
      host: '127.0.0.1',
      port: 0,
      policy: { allowPrivateTargets: true, echoUrls: [] },
      flushIntervalMs: 3_600_000,
      sampleIntervalMs: 100,
      leaseBytes: 64 * 1024,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await gatewayDb?.close();
    await cutter?.close();
    echo?.close();
    await db?.close();
  });

  // Sends `size` bytes through a tunnel to the echo, reads them back, closes; answers the bytes the client moved.
  async function moveBytes(size: number): Promise<number> {
    const { status, socket } = await openTunnel(gateway.port, `127.0.0.1:${echo.port}`, 'ubatch:secret');
    expect(status).toBe(200);
    await new Promise<void>((resolve) => {
      let got = 0;
      socket.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= size) resolve();
      });
      socket.write(Buffer.alloc(size, 7));
    });
    socket.destroy();
    await expect.poll(() => gateway.connectionCount()).toBe(0);
    return 2 * size;
  }

  const used = async () =>
    (await db.db.select({ used: proxyTokens.trafficUsedBytes }).from(proxyTokens).where(eq(proxyTokens.id, tokenId)))[0]
      .used;
  const bucketed = async () =>
    Number(
      (
        (await db.db.execute(
          sql`SELECT coalesce(sum(bytes), 0) AS n FROM token_usage WHERE token_id = ${tokenId}`,
        )) as unknown as { rows: { n: string }[] }
      ).rows[0].n,
    );
  const leases = async () => {
    const { rows } = (await db.db.execute(
      sql`SELECT t.traffic_leased_bytes AS leased, t.traffic_used_bytes AS used, (SELECT coalesce(sum(bytes), 0) FROM gateway_leases WHERE token_id = t.id) AS held
          FROM proxy_tokens t WHERE t.id = ${tokenId}`,
    )) as unknown as { rows: { leased: string; used: string; held: string }[] };
    return { leased: Number(rows[0].leased), used: Number(rows[0].used), held: Number(rows[0].held) };
  };

  it('a flush whose commit went through but whose answer was lost is not written twice', async () => {
    const first = await moveBytes(100_000);
    const cut = cutter.cutAtCommitAfter(/insert into "gateway_usage_batches"/i);
    await expect(gateway.store.flush()).rejects.toThrow();
    await cut;
    // The cut transaction did commit (the server ends it once the COMMIT arrives): the bytes are in the database once already.
    await expect.poll(used).toBe(first);
    expect(gateway.store.stats().pendingTokens).toBe(1);

    // More traffic meanwhile, then the next flush: the same batch again (skipped), then the new bytes.
    const second = await moveBytes(30_000);
    await gateway.store.flush();
    expect(gateway.store.stats().pendingTokens).toBe(0);
    expect(await used()).toBe(first + second);
    expect(await bucketed()).toBe(first + second);
    // The lease this gateway holds is what it claimed minus what it wrote as used: nothing counted twice there either.
    const after = await leases();
    expect(after.leased).toBe(after.used + after.held);

    // Flushing again writes nothing more.
    await gateway.store.flush();
    expect(await used()).toBe(first + second);
  });
});
