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
