import type net from 'node:net';
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

const LIMIT = 3;

// `npm run start:gateway` with two workers: the processes share the port, and
// a token's simultaneous connections are counted once for both (the primary
// keeps the count). Counted per worker, the round-robin spread of four
// connections would let the fourth through.
describeOnPostgres('a clustered standalone gateway', () => {
  let db: TDbHandle & { url?: string };
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let port: number;
  let gateway: TGatewayProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    await insertToken(db.db, { userId, username: 'ucluster', exitNodeId });
    port = await freePort();
    gateway = await startGatewayProcess(
      {
        DATABASE_URL: db.url,
        GATEWAY_WORKERS: '2',
        GATEWAY_PORT: String(port),
        GATEWAY_MAX_CONNECTIONS_PER_TOKEN: String(LIMIT),
      },
      '(2 workers)',
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    echo?.close();
    await db?.close();
  });

  // A CONNECT tunnel to the echo: its status, and the socket when open.
  const tunnel = () => openTunnel(port, `127.0.0.1:${echo.port}`, 'ucluster:secret');

  // Proves the tunnel carries bytes (so it is counted while open).
  async function ping(socket: net.Socket): Promise<void> {
    const back = new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
    socket.write('ping');
    expect(await back).toBe('ping');
  }

  it('keeps one per-token connection limit across the workers, and gives a slot back when a tunnel closes', async () => {
    const open = [];
    for (let i = 0; i < LIMIT; i++) {
      const t = await tunnel();
      expect(t.status, gateway.output()).toBe(200);
      await ping(t.socket);
      open.push(t.socket);
    }
    for (let i = 0; i < 2; i++) {
      const refused = await tunnel();
      expect(refused.status).toBe(429);
      refused.socket.destroy();
    }
    open.pop()!.destroy();
    // The slot comes back once the worker has told the primary; a refused try changes nothing, so try until it does.
    let again: { status: number; socket: net.Socket } | undefined;
    await expect
      .poll(async () => {
        again?.socket.destroy();
        again = await tunnel();
        return again.status;
      })
      .toBe(200);
    await ping(again!.socket);
    for (const socket of [...open, again!.socket]) socket.destroy();
  });
});
