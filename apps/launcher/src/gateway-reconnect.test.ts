import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyTokens, type TDbHandle } from '@proxy/db';
import { bump, createTestDatabase, insertExit, insertToken, insertUser, isPostgres, startEcho } from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** PostgreSQL application_name of the gateway's connections (pg reads PGAPPNAME): the test terminates them by it. */
const GATEWAY_APPLICATION_NAME = 'proxy-gateway-under-fault';

// `npm run start:gateway` on PostgreSQL when every one of its database
// connections is dropped (as a restart of the server drops them): it keeps
// serving from its in-memory copy, does not crash, reconnects by itself, and
// a change made afterwards reaches it again.
describe.skipIf(!isPostgres)('a standalone gateway whose database connections drop (needs PostgreSQL)', () => {
  let db: TDbHandle & { url?: string };
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let port: number;
  let child: ReturnType<typeof spawn>;
  let output = '';
  let tokenId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    tokenId = await insertToken(db.db, { userId, username: 'ureconnect', exitNodeId });
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', 'gateway'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PGAPPNAME: GATEWAY_APPLICATION_NAME,
        GATEWAY_WORKERS: '1',
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(port),
        GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('gateway listening on')) resolve();
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
      child.once('exit', (code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    echo?.close();
    await db?.close();
  });

  // Opens a CONNECT tunnel to the echo as the token; when open, proves it carries bytes. Resolves the status.
  function tunnelStatus(): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let got = '';
      socket.on('error', reject);
      socket.on('data', (d) => {
        got += d.toString('latin1');
        const end = got.indexOf('\r\n\r\n');
        if (end === -1 || got.length < 12) return;
        const status = Number(got.slice(9, 12));
        socket.removeAllListeners('data');
        if (status !== 200) {
          socket.destroy();
          return resolve(status);
        }
        socket.once('data', (back) => {
          socket.destroy();
          if (back.toString() === 'ping') resolve(200);
          else reject(new Error(`the tunnel echoed ${JSON.stringify(back.toString())}`));
        });
        socket.write('ping');
      });
      socket.write(
        `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from('ureconnect:secret').toString('base64')}\r\n\r\n`,
      );
    });
  }

  async function gatewayConnections(): Promise<number> {
    const { rows } = await db.pool!.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [GATEWAY_APPLICATION_NAME],
    );
    return Number(rows[0].n);
  }

  it('keeps serving while its connections are gone, reconnects by itself, and takes changes again', async () => {
    expect(await tunnelStatus(), output).toBe(200);
    await expect.poll(gatewayConnections).toBeGreaterThan(0);

    const terminated = await db.pool!.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [GATEWAY_APPLICATION_NAME],
    );
    expect(terminated.rows.length).toBeGreaterThan(0);

    // Served from memory right away, and again while it reconnects.
    for (let i = 0; i < 5; i++) expect(await tunnelStatus(), output).toBe(200);
    expect(child.exitCode, output).toBeNull();

    // It listens again (a connection of its own is back), so a change reaches it without a restart.
    await expect.poll(gatewayConnections).toBeGreaterThan(0);
    await db.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, tokenId));
    await bump(db.db);
    await expect.poll(() => tunnelStatus()).not.toBe(200);
    expect(child.exitCode, output).toBeNull();
  });
});
