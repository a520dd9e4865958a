import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrateDb, openDb } from './index';

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
      const rows = await handle.db.execute(sql`SELECT updated_at > now() - interval '1 minute' AS fresh FROM proxy_tokens`);
      expect((rows as unknown as { rows: { fresh: boolean }[] }).rows[0].fresh).toBe(true);
      const state = await handle.db.execute(sql`SELECT version FROM gateway_state WHERE id = 1`);
      expect((state as unknown as { rows: { version: number }[] }).rows[0].version).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
