import type net from 'node:net';
import os from 'node:os';
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

// Long enough for the test to use the tunnel after the gateway said it drains; the test waits for the close itself.
const DRAIN_S = 5;

// A standalone gateway stopped with SIGTERM while a tunnel is open: it stops accepting at once, the tunnel carries
// bytes on until GATEWAY_DRAIN_S, then the gateway closes it, writes every metered byte, gives its leases back and
// exits 0.
describeOnPostgres('a gateway stopped with SIGTERM drains its tunnels', () => {
  let db: TDbHandle & { url?: string };
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let port: number;
  let gateway: TGatewayProcess;
  let tokenId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    tokenId = await insertToken(db.db, {
      userId,
      username: 'udrain',
      exitNodeId,
      billing: 'traffic',
      trafficLimitBytes: 1_000_000_000,
    });
    port = await freePort();
    gateway = await startGatewayProcess(
      {
        DATABASE_URL: db.url,
        GATEWAY_WORKERS: '1',
        GATEWAY_PORT: String(port),
        GATEWAY_DRAIN_S: String(DRAIN_S),
        GATEWAY_LEASE_BYTES: String(64 * 1024),
      },
      'gateway listening on',
    );
  });

  afterAll(async () => {
    await gateway?.kill();
    echo?.close();
    await db?.close();
  });

  async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
    return ((await db.db.execute(query)) as unknown as { rows: T[] }).rows[0];
  }
  const token = async () => {
    const row = await one<{ leased: string; used: string; held: string; bucketed: string }>(
      sql`SELECT traffic_leased_bytes AS leased, traffic_used_bytes AS used,
            (SELECT coalesce(sum(bytes), 0) FROM gateway_leases WHERE token_id = ${tokenId}) AS held,
            (SELECT coalesce(sum(bytes), 0) FROM token_usage WHERE token_id = ${tokenId}) AS bucketed
          FROM proxy_tokens WHERE id = ${tokenId}`,
    );
    return {
      leased: Number(row.leased),
      used: Number(row.used),
      held: Number(row.held),
      bucketed: Number(row.bucketed),
    };
  };
  const instanceOf = async (pid: number) =>
    (
      await one<{ id: string } | undefined>(
        sql`SELECT id FROM gateway_instances WHERE label = ${`${os.hostname()}:${pid}`}`,
      )
    )?.id;

  // Sends `size` bytes through the tunnel and reads them back; answers the bytes moved (both ways).
  function roundTrip(socket: net.Socket, size: number): Promise<number> {
    return new Promise((resolve, reject) => {
      let got = 0;
      const onClose = () => reject(new Error(`tunnel closed after ${got} of ${size} bytes`));
      const onData = (d: Buffer) => {
        got += d.length;
        if (got < size) return;
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(2 * size);
      };
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.write(Buffer.alloc(size, 3));
    });
  }

  it('keeps the open tunnel until the deadline, then closes it with every byte metered and the leases returned', async () => {
    expect(await instanceOf(gateway.pid), gateway.output()).toBeDefined();
    const { status, socket } = await openTunnel(port, `127.0.0.1:${echo.port}`, 'udrain:secret');
    expect(status, gateway.output()).toBe(200);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    let moved = await roundTrip(socket, 200_000);
    // A lease in hand before the stop.
    await expect.poll(async () => (await token()).held).toBeGreaterThan(0);

    gateway.signal('SIGTERM');
    await gateway.waitFor('gateway draining');
    // New connections are refused at once...
    await expect(openTunnel(port, `127.0.0.1:${echo.port}`, 'udrain:secret')).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    // ...while the open tunnel carries on.
    moved += await roundTrip(socket, 300_000);
    moved += await roundTrip(socket, 1000);
    expect(gateway.exitCode()).toBeNull();

    // At the deadline the gateway closes the tunnel (the client never does), writes its usage and exits 0.
    await closed;
    expect(await gateway.exited, gateway.output()).toBe(0);
    expect(gateway.output()).toContain('gateway stopped: usage written, leases returned');
    const after = await token();
    expect(after.used).toBe(moved);
    expect(after.bucketed).toBe(moved);
    expect(after.held).toBe(0);
    expect(after.leased).toBe(after.used);
    expect(await instanceOf(gateway.pid)).toBeUndefined();
  });
});
