import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { targetRuleLists, type TDbHandle } from '@proxy/db';
import { bump, createTestDatabase, insertToken, insertUser } from '../test/fixtures';
import { createStateCache } from './state-cache';

// Target rules in the state cache: which list applies to a token, compiled once per change.
describe('state cache: target rules', () => {
  let handle: TDbHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("gives a token its own list, else its owner's account list, and recompiles only a changed list", async () => {
    const owner = await insertUser(handle.db);
    const own = await insertToken(handle.db, { userId: owner, username: 'tr-own' });
    const plain = await insertToken(handle.db, { userId: owner, username: 'tr-plain' });
    const stranger = await insertToken(handle.db, { userId: await insertUser(handle.db), username: 'tr-stranger' });
    await handle.db.insert(targetRuleLists).values([
      { userId: owner, tokenId: null, mode: 'deny', rules: ['account.example'] },
      { userId: owner, tokenId: own, mode: 'allow', rules: ['own.example'] },
    ]);
    const cache = createStateCache({ db: handle.db, pollIntervalMs: 3_600_000 });
    await cache.sync(true);
    const ownRules = cache.targetRulesOf({ id: own, userId: owner });
    const accountRules = cache.targetRulesOf({ id: plain, userId: owner });
    expect(ownRules?.mode).toBe('allow');
    expect(ownRules?.decideName('a.own.example')).toBe('allowed');
    expect(ownRules?.decideName('account.example')).toBe('blocked');
    expect(accountRules?.mode).toBe('deny');
    expect(accountRules?.decideName('account.example')).toBe('blocked');
    expect(cache.targetRulesOf({ id: stranger, userId: owner + 1 })).toBeNull();

    // An unrelated change: both matchers are the same objects (not compiled again).
    await bump(handle.db);
    await cache.refresh();
    expect(cache.targetRulesOf({ id: own, userId: owner })).toBe(ownRules);
    expect(cache.targetRulesOf({ id: plain, userId: owner })).toBe(accountRules);

    // The account's list changes: only it is compiled again.
    await handle.db
      .update(targetRuleLists)
      .set({ rules: ['other.example'], updatedAt: new Date(Date.now() + 1000) })
      .where(and(eq(targetRuleLists.userId, owner), isNull(targetRuleLists.tokenId)));
    await bump(handle.db);
    await cache.refresh();
    expect(cache.targetRulesOf({ id: own, userId: owner })).toBe(ownRules);
    const changed = cache.targetRulesOf({ id: plain, userId: owner });
    expect(changed).not.toBe(accountRules);
    expect(changed?.decideName('account.example')).toBe('allowed');

    // The token's own list removed: the account's applies to it.
    await handle.db.delete(targetRuleLists).where(eq(targetRuleLists.tokenId, own));
    await bump(handle.db);
    await cache.refresh();
    expect(cache.targetRulesOf({ id: own, userId: owner })).toBe(changed);
    await cache.stop();
  });

  it('loads the rules of credentials looked up before the next sync', async () => {
    const cache = createStateCache({ db: handle.db, pollIntervalMs: 3_600_000 });
    await cache.sync(true);
    const owner = await insertUser(handle.db);
    const id = await insertToken(handle.db, { userId: owner, username: 'tr-new' });
    await handle.db
      .insert(targetRuleLists)
      .values({ userId: owner, tokenId: null, mode: 'deny', rules: ['10.0.0.0/8'] });
    expect(cache.tokenByUsername('tr-new')).toBeUndefined();
    expect(await cache.lookUp('tr-new')).toBe(true);
    expect(cache.targetRulesOf({ id, userId: owner })?.decideAddress('10.1.2.3')).toBe('blocked');
    await cache.stop();
  });
});
