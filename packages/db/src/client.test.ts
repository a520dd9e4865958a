import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EmbeddedDatabaseInUseError, migrateDb, openDb } from './index';

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
