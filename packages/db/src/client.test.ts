import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EmbeddedDatabaseInUseError, migrateDb, openDb } from './index';
import { describeOnPostgres } from './testing';

describe('database client', () => {
  it('migrates and enforces the non-negative balance check', async () => {
    const handle = await openDb(); // in-memory PGlite: the check is the same on both drivers
    try {
      await migrateDb(handle);
      await migrateDb(handle); // idempotent
      await handle.db.execute(sql`INSERT INTO balances (user_id, available_fen) VALUES (1, 0)`);
      await expect(handle.db.execute(sql`UPDATE balances SET available_fen = -1 WHERE user_id = 1`)).rejects.toThrow();
      const rows = await handle.db.execute(sql`SELECT available_fen FROM balances WHERE user_id = 1`);
      expect((rows as unknown as { rows: { available_fen: number }[] }).rows[0].available_fen).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

describe('embedded database lock', () => {
  it('refuses a second opening of a data folder while it is open, and takes over a lock its holder left behind', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'proxy-lock-')), 'pg');
    const first = await openDb({ dataDir });
    try {
      expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe(String(process.pid));
      const second = openDb({ dataDir });
      await expect(second).rejects.toBeInstanceOf(EmbeddedDatabaseInUseError);
      await expect(second).rejects.toThrow(`open in process ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    // A lock with this process's own pid that it does not hold was left by an earlier run with the same pid.
    writeFileSync(`${dataDir}.lock`, String(process.pid));
    const reused = await openDb({ dataDir });
    await reused.close();

    // A process that has ended holds nothing.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(`${dataDir}.lock`, ended);
    const again = await openDb({ dataDir });
    try {
      await again.db.execute(sql`SELECT 1`);
      expect(readFileSync(`${dataDir}.lock`, 'utf8')).toBe(String(process.pid));
    } finally {
      await again.close();
    }
  });
});

describe('change tracking', () => {
  it('stamps proxy_tokens.updated_at on every update (gateways load changed rows by it)', async () => {
    const handle = await openDb();
    try {
      await migrateDb(handle);
      await handle.db.execute(
        sql`INSERT INTO proxy_tokens (user_id, product, category, billing, network, country, username, password, expires_at, updated_at)
            VALUES (1, 'static', 'isp', 'ip', 'HTTP', 'us', 'u1', 'p', now(), '2000-01-01')`,
      );
      await handle.db.execute(sql`UPDATE proxy_tokens SET remark = 'x' WHERE username = 'u1'`);
      const rows = await handle.db.execute(
        sql`SELECT updated_at > now() - interval '1 minute' AS fresh FROM proxy_tokens`,
      );
      expect((rows as unknown as { rows: { fresh: boolean }[] }).rows[0].fresh).toBe(true);
      const state = await handle.db.execute(sql`SELECT version FROM gateway_state WHERE id = 1`);
      expect((state as unknown as { rows: { version: number }[] }).rows[0].version).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

/** A TCP relay to PostgreSQL whose connections the test can cut at once. */
async function startRelay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** Cuts every connection open now (new ones still pass). */
    cut: () => sockets.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeOnPostgres('the PostgreSQL pool when a connection dies', () => {
  it('drops a client whose connection ends between its checkout and BEGIN, so the pool keeps its size and closes', async () => {
    const relay = await startRelay(process.env.DATABASE_URL!);
    const handle = await openDb({ url: relay.url, poolSize: 2 });
    const pool = handle.pool!;
    try {
      // The connection dies right after the transaction got its client, before BEGIN has an answer.
      pool.once('acquire', () => relay.cut());
      await expect(handle.db.transaction(async (tx) => tx.execute(sql`SELECT 1`))).rejects.toThrow();
      await expect.poll(() => ({ total: pool.totalCount, idle: pool.idleCount })).toEqual({ total: 0, idle: 0 });
      // The pool works on, and a client released twice (the holder's own release after ours) changes nothing.
      for (let i = 0; i < 3; i++) {
        const rows = await handle.db.transaction(async (tx) => tx.execute(sql`SELECT 1 AS one`));
        expect((rows as unknown as { rows: { one: number }[] }).rows).toEqual([{ one: 1 }]);
      }
      expect(pool.totalCount).toBeLessThanOrEqual(2);
    } finally {
      // A pool holding a lost client would wait for it for ever: its end is then left running (the test has failed).
      const ending = handle.close();
      if (pool.totalCount === pool.idleCount) await ending;
      await relay.close();
    }
  });
});
