import os from 'node:os';
import type net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TDbHandle } from '@proxy/db';
import {
  createTestDatabase,
  describeOnPostgres,
  insertExit,
  insertToken,
  insertUser,
  startEcho,
} from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { openTunnel, startGatewayProcess, type TGatewayProcess } from '../test/standalone-gateway';

const LIMIT = 1_000_000_000;
const WAIT = { timeout: 30_000, interval: 100 };

// Two standalone gateways on one database; one is killed (SIGKILL) while a
// client moves bytes through it. The other carries on, and once the killed
// one's heartbeat is stale a live gateway's sweep returns what it held of the
// token's allowance: traffic_leased_bytes falls back to the bytes used plus
// the leases live gateways hold. At most the killed one's usage since its last
// flush is lost; nothing is counted that the client did not move.
describeOnPostgres('a gateway killed mid-traffic does not strand the allowance', () => {
  let db: TDbHandle & { url?: string };
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let doomed: TGatewayProcess;
  let survivor: TGatewayProcess;
  let doomedPort: number;
  let survivorPort: number;
  let tokenId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    tokenId = await insertToken(db.db, {
      userId,
      username: 'ukill',
      exitNodeId,
      billing: 'traffic',
      trafficLimitBytes: LIMIT,
    });
    const env = {
      DATABASE_URL: db.url,
      GATEWAY_WORKERS: '1',
      GATEWAY_LEASE_BYTES: String(256 * 1024),
      GATEWAY_LEASE_EXPIRY_S: '2',
    };
    doomedPort = await freePort();
    doomed = await startGatewayProcess({ ...env, GATEWAY_PORT: String(doomedPort) }, 'gateway listening on');
    survivorPort = await freePort();
    survivor = await startGatewayProcess({ ...env, GATEWAY_PORT: String(survivorPort) }, 'gateway listening on');
  });

  afterAll(async () => {
    await doomed?.kill();
    await survivor?.stop();
    echo?.close();
    await db?.close();
  });

  async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
    return ((await db.db.execute(query)) as unknown as { rows: T[] }).rows[0];
  }
  const token = async () => {
    const row = await one<{ leased: string; used: string; held: string }>(
      sql`SELECT traffic_leased_bytes AS leased, traffic_used_bytes AS used, (SELECT coalesce(sum(bytes), 0) FROM gateway_leases WHERE token_id = ${tokenId}) AS held
          FROM proxy_tokens WHERE id = ${tokenId}`,
    );
    return { leased: Number(row.leased), used: Number(row.used), held: Number(row.held) };
  };
  const instanceOf = async (pid: number) =>
    (
      await one<{ id: string } | undefined>(
        sql`SELECT id FROM gateway_instances WHERE label = ${`${os.hostname()}:${pid}`}`,
      )
    )?.id;
  const heldBy = async (instanceId: string) =>
    Number(
      (
        await one<{ n: string }>(
          sql`SELECT coalesce(sum(bytes), 0) AS n FROM gateway_leases WHERE instance_id = ${instanceId}`,
        )
      ).n,
    );

  // Pumps bytes through a tunnel to the echo until stopped; counts what the client sent and got back.
  function pump(socket: net.Socket) {
    const chunk = Buffer.alloc(16 * 1024, 1);
    const moved = { sent: 0, received: 0 };
    socket.on('data', (d: Buffer) => {
      moved.received += d.length;
      if (moved.received >= moved.sent && !socket.destroyed) {
        moved.sent += chunk.length;
        socket.write(chunk);
      }
    });
    socket.on('error', () => {});
    moved.sent += chunk.length;
    socket.write(chunk);
    return moved;
  }

  it('the other gateway serves on, and the killed one’s leases come back after its heartbeat goes stale', async () => {
    const doomedInstance = await instanceOf(doomed.pid);
    const survivorInstance = await instanceOf(survivor.pid);
    expect(doomedInstance, doomed.output()).toBeDefined();
    expect(survivorInstance, survivor.output()).toBeDefined();

    const { status, socket } = await openTunnel(doomedPort, `127.0.0.1:${echo.port}`, 'ukill:secret');
    expect(status, doomed.output()).toBe(200);
    const moved = pump(socket);
    // Mid-transfer: some usage flushed, a lease in hand.
    await expect.poll(async () => (await token()).used, WAIT).toBeGreaterThan(0);
    await expect.poll(() => heldBy(doomedInstance!), WAIT).toBeGreaterThan(0);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await doomed.kill();
    await closed;
    const atKill = await token();
    expect(atKill.leased).toBeGreaterThan(atKill.used);

    // The other gateway carries on serving the same token.
    const other = await openTunnel(survivorPort, `127.0.0.1:${echo.port}`, 'ukill:secret');
    expect(other.status, survivor.output()).toBe(200);
    const back = await new Promise<string>((resolve) => {
      other.socket.once('data', (d) => resolve(d.toString()));
      other.socket.write('ping');
    });
    expect(back).toBe('ping');
    other.socket.destroy();

    // The sweep: the killed gateway's row and leases are gone, the allowance back to used + live leases.
    await expect.poll(() => instanceOf(doomed.pid), WAIT).toBeUndefined();
    expect(await heldBy(doomedInstance!)).toBe(0);
    const after = await token();
    expect(after.leased).toBe(after.used + after.held);
    expect(after.held).toBe(await heldBy(survivorInstance!));
    // Never more usage than the client moved; lost at most what the killed one had not flushed.
    expect(after.used).toBeLessThanOrEqual(2 * moved.sent);
    expect(await instanceOf(survivor.pid)).toBe(survivorInstance);
    expect(survivor.exitCode(), survivor.output()).toBeNull();
  });
});
