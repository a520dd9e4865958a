import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { proxyTokens, type TDbHandle } from '@proxy/db';
import { bump, createTestDatabase, insertToken, insertUser } from '../test/fixtures';
import { createStateCache } from './state-cache';

describe('state cache', () => {
  let handle: TDbHandle;
  let ids: number[];

  beforeAll(async () => {
    handle = await createTestDatabase();
    const userId = await insertUser(handle.db);
    ids = [];
    for (let i = 0; i < 7; i++) {
      const odd =
        i === 5
          ? {
              product: 'dynamic',
              category: 'idc',
              billing: 'traffic',
              network: 'SOCKS5',
              country: 'de',
              state: 'be',
              city: 'berlin',
              status: 'disabled',
              deletedAt: new Date('2026-11-20T08:00:00.123Z'),
              trafficLimitBytes: 5_000_000_000,
              trafficUsedBytes: 1234,
            }
          : {};
      ids.push(
        await insertToken(handle.db, {
          userId,
          username: `cold-${i}`,
          country: 'us',
          status: 'enabled',
          ...odd,
        } as never),
      );
    }
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('loads every token cold in pages, then applies a change', async () => {
    const cache = createStateCache({ db: handle.db, pollIntervalMs: 3_600_000, coldLoadPage: 3 });
    await cache.sync(true);
    expect(cache.stats().tokens).toBe(7);
    for (const [i, id] of ids.entries()) expect(cache.tokenByUsername(`cold-${i}`)?.id).toBe(id);
    expect(cache.tokenById(ids[0])).toMatchObject({ country: 'us', status: 'enabled', product: 'static' });
    // Every field as the table holds it (the cold load reads raw rows, not Drizzle's mapping).
    const [row] = await handle.db.select().from(proxyTokens).where(eq(proxyTokens.id, ids[5]));
    expect(cache.tokenById(ids[5])).toEqual({
      id: row.id,
      ownerStatus: 'active',
      userId: row.userId,
      product: 'dynamic',
      category: 'idc',
      billing: 'traffic',
      network: 'SOCKS5',
      country: 'de',
      state: 'be',
      city: 'berlin',
      username: 'cold-5',
      password: 'secret',
      status: 'disabled',
      deletedAt: row.deletedAt,
      expiresAt: row.expiresAt,
      exitNodeId: null,
      trafficLimitBytes: 5_000_000_000,
      trafficUsedBytes: 1234,
      trafficLeasedBytes: 0,
      updatedAt: row.updatedAt,
    });

    await handle.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, ids[6]));
    await bump(handle.db);
    await cache.refresh();
    expect(cache.tokenById(ids[6])?.status).toBe('disabled');
    expect(cache.stats().tokens).toBe(7);
    await cache.stop();
  });
});
