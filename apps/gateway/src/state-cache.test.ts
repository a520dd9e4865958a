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
    for (let i = 0; i < 7; i++) ids.push(await insertToken(handle.db, { userId, username: `cold-${i}`, country: 'us', status: 'enabled' }));
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

    await handle.db.update(proxyTokens).set({ status: 'disabled' }).where(eq(proxyTokens.id, ids[6]));
    await bump(handle.db);
    await cache.refresh();
    expect(cache.tokenById(ids[6])?.status).toBe('disabled');
    expect(cache.stats().tokens).toBe(7);
    await cache.stop();
  });
});
