import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { tokenUsage, usageLogEntries, usageLogSettings, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from './index';
import {
  bump,
  createTestDatabase,
  insertExit,
  insertToken,
  insertUser,
  listen,
  startEcho,
  startOrigin,
  until,
  usedBytesOf,
} from '../test/fixtures';
import { viaProxy } from '../test/proxy-clients';
import { buildConnectRequest, buildUserPass } from './socks5';
import type { Connection } from './connection';
import type { TStateCache } from './state-cache';
import { createUsageLog } from './usage-log';

// The per-connection usage log through the real gateway, a real database and real sockets.
let handle: TDbHandle;
let gateway: TGateway;
let clock = Date.now();
let origin: Awaited<ReturnType<typeof startOrigin>>;
let echo: Awaited<ReturnType<typeof startEcho>>;
let loggedUser: number;
let silentUser: number;

const usedBytes = (tokenId: number) => usedBytesOf(handle.db, tokenId);

async function bucketBytes(tokenId: number): Promise<number> {
  const rows = await handle.db
    .select({ bytes: tokenUsage.bytes })
    .from(tokenUsage)
    .where(eq(tokenUsage.tokenId, tokenId));
  return rows.reduce((s, r) => s + r.bytes, 0);
}

async function logRows(tokenId: number) {
  return handle.db
    .select()
    .from(usageLogEntries)
    .where(eq(usageLogEntries.tokenId, tokenId))
    .orderBy(asc(usageLogEntries.id));
}

// Reads from the socket until `size` bytes are there.
function readBytes(socket: net.Socket, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < size) return;
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      resolve(buf);
    };
    const onClose = () => reject(new Error(`closed after ${buf.length} bytes`));
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/**
 * A tunnel (CONNECT or SOCKS5) to the echo server: sends `payload`, reads it
 * back, closes. Answers the tunnel's status (200, or the refusal).
 */
async function tunnel(
  via: 'connect' | 'socks5',
  username: string,
  port: number,
  payload: Buffer,
  password = 'secret',
): Promise<string> {
  const socket = net.connect(gateway.port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let status: string;
  if (via === 'connect') {
    socket.write(
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nProxy-Authorization: Basic ${Buffer.from(`${username}:${password}`).toString('base64')}\r\n\r\n`,
    );
    let head = Buffer.alloc(0);
    await new Promise<void>((resolve) => {
      const onData = (d: Buffer) => {
        head = Buffer.concat([head, d]);
        if (head.includes('\r\n\r\n')) {
          socket.removeListener('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
    });
    status = head.toString('latin1').split(' ')[1];
  } else {
    socket.write(Buffer.from([5, 1, 2]));
    await readBytes(socket, 2);
    socket.write(buildUserPass(username, password));
    const auth = await readBytes(socket, 2);
    socket.write(buildConnectRequest('127.0.0.1', port));
    const reply = auth[1] === 0 ? await readBytes(socket, 10) : auth;
    status = auth[1] !== 0 ? 'auth-failed' : reply[1] === 0 ? '200' : `socks-${reply[1]}`;
  }
  if (status === '200') {
    const back = readBytes(socket, payload.length);
    socket.write(payload);
    expect((await back).equals(payload)).toBe(true);
    socket.end();
  }
  await closed;
  return status;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  origin = await startOrigin();
  echo = await startEcho();
  loggedUser = await insertUser(handle.db);
  silentUser = await insertUser(handle.db);
  await handle.db.insert(usageLogSettings).values({ userId: loggedUser, enabled: true, retentionDays: 3 });
  await insertExit(handle.db, { kind: 'residential', egress: 'direct', country: 'us' });
  gateway = await startGateway({
    db: handle.db,
    host: '127.0.0.1',
    port: 0,
    policy: { allowPrivateTargets: true, echoUrls: [] },
    now: () => clock,
    pollIntervalMs: 100,
    flushIntervalMs: 100,
    sampleIntervalMs: 50,
  });
});

afterAll(async () => {
  await gateway?.close();
  origin.close();
  echo.close();
  await handle?.close();
});

describe('the per-connection usage log', () => {
  it('records each CONNECT, SOCKS5 and HTTP forward connection with exactly its metered bytes', async () => {
    const http = await insertToken(handle.db, { product: 'dynamic', userId: loggedUser, username: 'loghttp' });
    const socks = await insertToken(handle.db, {
      product: 'dynamic',
      userId: loggedUser,
      username: 'logsocks',
      network: 'SOCKS5',
    });
    await bump(handle.db);
    await gateway.store.refresh();

    const started = Date.now();
    expect(await tunnel('connect', 'loghttp', echo.port, Buffer.alloc(150_000, 7))).toBe('200');
    expect(await tunnel('connect', 'loghttp', echo.port, Buffer.alloc(1_234, 8))).toBe('200');
    expect(await tunnel('socks5', 'logsocks', echo.port, Buffer.alloc(70_001, 9))).toBe('200');
    const forward = await viaProxy({
      proxyPort: gateway.port,
      username: 'loghttp',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/bytes/40000`,
      via: 'http',
    });
    expect(forward.status).toBe(200);
    expect(forward.body.length).toBe(40_000);

    await until(async () => (await logRows(http)).length === 3 && (await logRows(socks)).length === 1);
    await gateway.store.flush();
    const httpRows = await logRows(http);
    const socksRows = await logRows(socks);

    // Tunnels: exactly the payload each way (the handshake is not metered).
    expect(
      httpRows.slice(0, 2).map((r) => [r.protocol, r.bytesUp, r.bytesDown, r.targetPort, r.outcome, r.reason]),
    ).toEqual([
      ['connect', 150_000, 150_000, echo.port, 'closed', null],
      ['connect', 1_234, 1_234, echo.port, 'closed', null],
    ]);
    expect(socksRows.map((r) => [r.protocol, r.bytesUp, r.bytesDown, r.targetHost, r.targetPort, r.outcome])).toEqual([
      ['socks5', 70_001, 70_001, '127.0.0.1', echo.port, 'closed'],
    ]);
    // HTTP forward: the request up, the answer (its head and 40000 body bytes) down.
    const fwd = httpRows[2];
    expect([fwd.protocol, fwd.targetHost, fwd.targetPort, fwd.outcome]).toEqual([
      'http',
      '127.0.0.1',
      origin.port,
      'closed',
    ]);
    expect(fwd.bytesUp).toBeGreaterThan(50);
    expect(fwd.bytesUp).toBeLessThan(500);
    expect(fwd.bytesDown).toBeGreaterThan(40_000);
    expect(fwd.bytesDown).toBeLessThan(40_500);
    for (const r of [...httpRows, ...socksRows]) {
      expect(r.sourceIp).toMatch(/127\.0\.0\.1$/);
      expect(r.startedAt.getTime()).toBeGreaterThanOrEqual(started - 1000);
      expect(r.endedAt.getTime()).toBeGreaterThanOrEqual(r.startedAt.getTime());
      expect(r.day).toBe(r.endedAt.toISOString().slice(0, 10));
    }
    // The log's totals are the proxy's metered usage, to the byte.
    for (const [tokenId, rows] of [
      [http, httpRows],
      [socks, socksRows],
    ] as const) {
      const logged = rows.reduce((s, r) => s + r.bytesUp + r.bytesDown, 0);
      expect(logged).toBe(await usedBytes(tokenId));
      expect(logged).toBe(await bucketBytes(tokenId));
    }
  });

  it('logs refused connections with their reason, their target and zero bytes', async () => {
    const expired = await insertToken(handle.db, {
      product: 'dynamic',
      userId: loggedUser,
      username: 'logexpired',
      expiresAt: new Date(clock - 1000),
    });
    const fine = await insertToken(handle.db, { product: 'dynamic', userId: loggedUser, username: 'logfine' });
    await bump(handle.db);
    await gateway.store.refresh();
    // A port nothing listens on: the exit cannot reach it.
    const closedPort = await new Promise<number>((resolve) => {
      const s = net.createServer();
      void listen(s).then((port) => s.close(() => resolve(port)));
    });

    expect(await tunnel('connect', 'logexpired', echo.port, Buffer.alloc(10))).toBe('403');
    expect(await tunnel('connect', 'logfine', closedPort, Buffer.alloc(10))).toBe('502');
    // Wrong password: not the owner's connection, nothing logged.
    expect(await tunnel('connect', 'logfine', echo.port, Buffer.alloc(10), 'wrong')).toBe('407');
    const refusedForward = await viaProxy({
      proxyPort: gateway.port,
      username: 'logexpired',
      password: 'secret',
      url: `http://127.0.0.1:${origin.port}/x`,
      via: 'http',
    });
    expect(refusedForward.reason).toBe('token-expired');

    await until(async () => (await logRows(expired)).length === 2 && (await logRows(fine)).length === 1);
    expect(
      (await logRows(expired)).map((r) => [r.protocol, r.targetPort, r.outcome, r.reason, r.bytesUp, r.bytesDown]),
    ).toEqual([
      ['connect', echo.port, 'refused', 'token-expired', 0, 0],
      ['http', origin.port, 'refused', 'token-expired', 0, 0],
    ]);
    expect((await logRows(fine)).map((r) => [r.targetPort, r.outcome, r.reason, r.bytesUp, r.bytesDown])).toEqual([
      [closedPort, 'refused', 'upstream-failed', 0, 0],
    ]);
    expect(await usedBytes(fine)).toBe(0);
  });

  it('logs a tunnel cut at expiry with the bytes it carried', async () => {
    const tokenId = await insertToken(handle.db, {
      product: 'dynamic',
      userId: loggedUser,
      username: 'logcut',
      expiresAt: new Date(clock + 60_000),
    });
    await bump(handle.db);
    await gateway.store.refresh();
    const socket = net.connect(gateway.port, '127.0.0.1');
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(
      `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nProxy-Authorization: Basic ${Buffer.from('logcut:secret').toString('base64')}\r\n\r\n`,
    );
    const ok = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');
    const back = readBytes(socket, ok.length + 5_000);
    socket.write(Buffer.alloc(5_000, 1));
    await back;
    clock += 120_000;
    await closed;
    await until(async () => (await logRows(tokenId)).length === 1);
    await gateway.store.flush();
    const [row] = await logRows(tokenId);
    expect([row.outcome, row.reason, row.bytesUp, row.bytesDown]).toEqual(['cut', 'token-expired', 5_000, 5_000]);
    expect(row.bytesUp + row.bytesDown).toBe(await usedBytes(tokenId));
  });

  it('records nothing for an account that did not opt in, and starts at once when it does', async () => {
    const silent = await insertToken(handle.db, { product: 'dynamic', userId: silentUser, username: 'silent1' });
    const marker = await insertToken(handle.db, { product: 'dynamic', userId: loggedUser, username: 'logmarker' });
    await bump(handle.db);
    await gateway.store.refresh();
    expect(await tunnel('connect', 'silent1', echo.port, Buffer.alloc(3_000, 2))).toBe('200');
    expect(await tunnel('connect', 'silent1', 1, Buffer.alloc(1))).not.toBe('200');
    // A later connection of an opted-in account: once its row is written, the silent ones would have been too.
    expect(await tunnel('connect', 'logmarker', echo.port, Buffer.alloc(10, 2))).toBe('200');
    await until(async () => (await logRows(marker)).length === 1);
    await until(async () => (await usedBytes(silent)) === 6_000);
    expect(await logRows(silent)).toEqual([]);
    const [{ count }] = await handle.db
      .select({ count: sql<number>`count(*)::int` })
      .from(usageLogEntries)
      .where(eq(usageLogEntries.userId, silentUser));
    expect(count).toBe(0);

    // Opting in (the API bumps the version): the next connection is logged.
    await handle.db.insert(usageLogSettings).values({ userId: silentUser, enabled: true, retentionDays: 1 });
    await bump(handle.db);
    await gateway.store.refresh();
    expect(await tunnel('connect', 'silent1', echo.port, Buffer.alloc(100, 2))).toBe('200');
    await until(async () => (await logRows(silent)).length === 1);
    expect((await logRows(silent))[0].bytesUp).toBe(100);
  });

  it("keeps writing across midnight: each row expires at its own day plus the retention, in its day's partition or the default one", async () => {
    const DAY = 86_400_000;
    const midnight = Math.ceil((Date.now() + 1000) / DAY) * DAY;
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const expiry = (ms: number, days: number) => dayOf(ms + days * DAY);
    // An account keeping 5 days (no other rows expire on those days here).
    const keeper = await insertUser(handle.db);
    await handle.db.insert(usageLogSettings).values({ userId: keeper, enabled: true, retentionDays: 5 });
    const late = await insertToken(handle.db, { product: 'dynamic', userId: keeper, username: 'logmidnight' });
    // The partition of the first row's expiry exists (as the server's job makes them); the second's does not.
    const before = expiry(midnight - DAY, 5);
    await handle.db.execute(
      sql.raw(
        `CREATE TABLE "usage_log_entries_p${before.replace(/-/g, '')}" PARTITION OF usage_log_entries FOR VALUES FROM ('${before}') TO ('${expiry(midnight, 5)}')`,
      ),
    );
    // The gateway's usage log on its own clock, fed closed connections of that account's proxy.
    let now = midnight - 300;
    const log = createUsageLog({
      db: handle.db,
      cache: { tokenById: () => ({ id: late, userId: keeper }), isUsageLogged: () => true } as unknown as TStateCache,
      now: () => now,
    });
    const closed = (bytesUp: number) =>
      ({
        logTokenId: late,
        isCut: false,
        endReason: null,
        protocol: 1,
        sourceIp: '127.0.0.1',
        targetHost: 'example.com',
        targetPort: 443,
        startedAt: now - 100,
        bytesUp,
        bytesDown: 0,
      }) as unknown as Connection;
    log.sink.closed(closed(500));
    await log.flush();
    now = midnight + 300;
    log.sink.closed(closed(700));
    await log.flush();
    expect(log.stats()).toEqual({ pending: 0, dropped: 0 });
    const placed = (await handle.db.execute(
      sql`SELECT day::text AS day, expires_on::text AS expires, tableoid::regclass::text AS part, bytes_up::int AS up
          FROM usage_log_entries WHERE token_id = ${late} ORDER BY id`,
    )) as unknown as { rows: unknown[] };
    expect(placed.rows).toEqual([
      { day: dayOf(midnight - DAY), expires: before, part: `usage_log_entries_p${before.replace(/-/g, '')}`, up: 500 },
      { day: dayOf(midnight), expires: expiry(midnight, 5), part: 'usage_log_entries_default', up: 700 },
    ]);
  });
});
