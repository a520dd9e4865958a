import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { proxyTokens, type TDbHandle } from '@proxy/db';
import {
  bump,
  createTestDatabase,
  describeOnPostgres,
  insertExit,
  insertToken,
  insertUser,
  startEcho,
} from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { openTunnel, startGatewayProcess, type TGatewayProcess } from '../test/standalone-gateway';

/** PostgreSQL application_name of the gateway's connections (pg reads PGAPPNAME): the test terminates them by it. */
const GATEWAY_APPLICATION_NAME = 'proxy-gateway-under-fault';

// `npm run start:gateway` on PostgreSQL when every one of its database
// connections is dropped (as a restart of the server drops them): it keeps
// serving from its in-memory copy, does not crash, reconnects by itself, and
// a change made afterwards reaches it again.
describeOnPostgres('a standalone gateway whose database connections drop', () => {
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
    tokenId = await insertToken(db.db, { userId, username: 'ureconnect', exitNodeId });
    port = await freePort();
    gateway = await startGatewayProcess(
      { DATABASE_URL: db.url, PGAPPNAME: GATEWAY_APPLICATION_NAME, GATEWAY_WORKERS: '1', GATEWAY_PORT: String(port) },
      'gateway listening on',
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    echo?.close();
    await db?.close();
  });

  // Opens a CONNECT tunnel to the echo as the token; when open, proves it carries bytes. Resolves the status.
  async function tunnelStatus(): Promise<number> {
    const { status, socket } = await openTunnel(port, `127.0.0.1:${echo.port}`, 'ureconnect:secret');
    if (status !== 200) {
      socket.destroy();
      return status;
    }
    const back = await new Promise<string>((resolve) => {
      socket.once('data', (d) => resolve(d.toString()));
      socket.write('ping');
    });
    socket.destroy();
    expect(back).toBe('ping');
    return 200;
  }

  async function gatewayConnections(): Promise<number> {
    const { rows } = await db.pool!.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [GATEWAY_APPLICATION_NAME],
    );
    return Number(rows[0].n);
  }

  it('keeps serving while its connections are gone, reconnects by itself, and takes changes again', async () => {
    expect(await tunnelStatus(), gateway.output()).toBe(200);
    await expect.poll(gatewayConnections).toBeGreaterThan(0);

    const terminated = await db.pool!.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [GATEWAY_APPLICATION_NAME],
    );
    expect(terminated.rows.length).toBeGreaterThan(0);

    // Served from memory right away, and again while it reconnects.
    for (let i = 0; i < 5; i++) expect(await tunnelStatus(), gateway.output()).toBe(200);
    expect(gateway.exitCode(), gateway.output()).toBeNull();

    // It listens again (a connection of its own is back), so a change reaches it without a restart.
    await expect.poll(gatewayConnections).toBeGreaterThan(0);
    await db.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, tokenId));
    await bump(db.db);
    await expect.poll(() => tunnelStatus()).not.toBe(200);
    expect(gateway.exitCode(), gateway.output()).toBeNull();
  });
});
