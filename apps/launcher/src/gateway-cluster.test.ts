import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDbHandle } from '@proxy/db';
import { createTestDatabase, insertExit, insertToken, insertUser, isPostgres, startEcho } from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const LIMIT = 3;

// `npm run start:gateway` with two workers: the processes share the port, and
// a token's simultaneous connections are counted once for both (the primary
// keeps the count). Counted per worker, the round-robin spread of four
// connections would let the fourth through.
describe.skipIf(!isPostgres)('a clustered standalone gateway (needs PostgreSQL)', () => {
  let db: TDbHandle & { url?: string };
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let port: number;
  let child: ReturnType<typeof spawn>;
  let output = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    await insertToken(db.db, { userId, username: 'ucluster', exitNodeId });
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', 'gateway'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        GATEWAY_WORKERS: '2',
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(port),
        GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_MAX_CONNECTIONS_PER_TOKEN: String(LIMIT),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('(2 workers)')) resolve();
      };
      child.stdout?.on('data', onData);
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

  // A CONNECT tunnel to the echo: its status, and the socket when open.
  function tunnel(): Promise<{ status: number; socket: net.Socket }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let got = '';
      socket.on('error', reject);
      socket.on('data', (d) => {
        got += d.toString('latin1');
        const end = got.indexOf('\r\n\r\n');
        if (end === -1) return;
        socket.removeAllListeners('data');
        resolve({ status: Number(got.slice(9, 12)), socket });
      });
      socket.write(
        `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from('ucluster:secret').toString('base64')}\r\n\r\n`,
      );
    });
  }

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
      expect(t.status, output).toBe(200);
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
