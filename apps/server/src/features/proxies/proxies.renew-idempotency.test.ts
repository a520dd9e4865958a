import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, proxyOrders, proxyTokens } from '@proxy/db';
import { createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { findLedgerViolations } from '../../../test/ledger-invariants';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from './proxies-test-kit';

// A renewal with an Idempotency-Key: the same key again answers the first
// renewal and debits once; another request with the same key is refused.
describe('renewals with an Idempotency-Key', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  const base = { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    await creditFen(t.deps, ann.userId, 100_000);
  });
  afterAll(async () => {
    await t.close();
  });

  const renew = (path: string, body: object, key: string, lang = 'en', user = ann) =>
    request(t.app, 'POST', path, {
      token: user.token,
      body: { payway: 'balance', ...body },
      headers: { 'idempotency-key': key, lang },
    });
  const expiryOf = async (id: number) =>
    (await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, id)))[0]!.expiresAt.getTime();
  const debitsOf = async (userId: number, key: string) =>
    t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, `renew:${key}`)));

  it('answers the first renewal again for the same key and body, debiting and extending once', async () => {
    const a = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    const b = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    const before = await balanceFen(t.deps, ann.userId);
    const expiries = [await expiryOf(a), await expiryOf(b)];
    const body = { token_ids: [a, b, 999_999], days: 3 };
    const first = await renew('/token/ip/renew', body, 'renew-1');
    expect(first.json(), first.body).toEqual({
      code: 0,
      msg: expect.any(String),
      data: { success: 2, failed: 1, total: 3, cost: 12, balance: (before - 1200) / 100 },
    });
    // The same ids in another order and repeated are the same request.
    const again = await renew('/token/ip/renew', { ...body, token_ids: [999_999, b, a, b] }, 'renew-1');
    expect(again.json().data).toEqual(first.json().data);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 1200);
    expect(await expiryOf(a)).toBe(expiries[0]! + 3 * 86_400_000);
    expect(await expiryOf(b)).toBe(expiries[1]! + 3 * 86_400_000);
    expect(await debitsOf(ann.userId, 'renew-1')).toHaveLength(1);
    const orders = await t.db.db
      .select()
      .from(proxyOrders)
      .where(and(eq(proxyOrders.userId, ann.userId), eq(proxyOrders.action, 'renew')));
    expect(orders.map((o) => [o.idempotencyKey, o.quantity, o.costFen])).toEqual([['renew:renew-1', 2, 1200]]);

    // Another key renews again.
    const other = await renew('/token/ip/renew', body, 'renew-2');
    expect(other.json().data).toMatchObject({ success: 2, cost: 12 });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 2400);
    expect(await findLedgerViolations(t.db.db)).toEqual([]);
  });

  it('refuses the same key with other days, other tokens or the other product, in both languages, and moves nothing', async () => {
    const a = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    const b = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    const v = (await buyOk(t.app, ann.token, '/token/variable/ip', base)).tokens[0].token_id;
    expect((await renew('/token/ip/renew', { token_ids: [a], days: 2 }, 'renew-3')).json().code).toBe(0);
    const before = await balanceFen(t.deps, ann.userId);
    const expiries = [await expiryOf(a), await expiryOf(b), await expiryOf(v)];
    const cases: [string, object][] = [
      ['/token/ip/renew', { token_ids: [a], days: 3 }],
      ['/token/ip/renew', { token_ids: [a, b], days: 2 }],
      ['/token/ip/renew', { token_ids: [b], days: 2 }],
      ['/token/variable/ip/renew', { token_ids: [v], days: 2 }],
    ];
    for (const [path, body] of cases) {
      const en = await renew(path, body, 'renew-3');
      expect(en.statusCode, JSON.stringify(body)).toBe(409);
      expect(en.json()).toEqual({
        code: 2002,
        msg: 'This Idempotency-Key was already used for a different request; use a new key for a new request',
        data: { error: 'IDEMPOTENCY_CONFLICT' },
      });
      const zh = await renew(path, body, 'renew-3', 'zh');
      expect(zh.json()).toMatchObject({
        code: 2002,
        msg: '该 Idempotency-Key 已用于另一个不同的请求，请为新请求使用新的标识',
      });
    }
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect([await expiryOf(a), await expiryOf(b), await expiryOf(v)]).toEqual(expiries);
    expect(await debitsOf(ann.userId, 'renew-3')).toHaveLength(1);

    // The key of a purchase does not answer a renewal (nor the reverse): each renews or buys.
    const bought = await request(t.app, 'POST', '/token/static/ip', {
      token: ann.token,
      body: base,
      headers: { 'idempotency-key': 'shared-text' },
    });
    expect(bought.json().code, bought.body).toBe(0);
    const renewed = await renew('/token/ip/renew', { token_ids: [b], days: 1 }, 'shared-text');
    expect(renewed.json().data).toMatchObject({ success: 1, cost: 2 });
    expect(await findLedgerViolations(t.db.db)).toEqual([]);
  });

  it("keeps each user's keys apart and refuses a key longer than 128 characters", async () => {
    const bo = await createUser(t.app, mailer, 'bo');
    await creditFen(t.deps, bo.userId, 10_000);
    const mine = (await buyOk(t.app, bo.token, '/token/static/ip', base)).tokens[0].token_id;
    const theirs = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    expect((await renew('/token/ip/renew', { token_ids: [theirs], days: 1 }, 'same-key')).json().data).toMatchObject({
      success: 1,
    });
    const own = await renew('/token/ip/renew', { token_ids: [mine], days: 1 }, 'same-key', 'en', bo);
    expect(own.json().data).toMatchObject({ success: 1, failed: 0, cost: 2 });
    const long = await renew('/token/ip/renew', { token_ids: [mine], days: 1 }, 'k'.repeat(129), 'en', bo);
    expect(long.statusCode).toBe(400);
    expect(long.json().data.issues).toEqual([expect.objectContaining({ path: 'Idempotency-Key' })]);
  });

  itOnPostgres('the same key sent 8 times at once renews and debits once', async () => {
    const cy = await createUser(t.app, mailer, 'cy');
    await creditFen(t.deps, cy.userId, 10_000);
    const ids = [
      (await buyOk(t.app, cy.token, '/token/static/ip', base)).tokens[0].token_id,
      (await buyOk(t.app, cy.token, '/token/static/ip', base)).tokens[0].token_id,
    ];
    const before = await balanceFen(t.deps, cy.userId);
    const expiries = await Promise.all(ids.map(expiryOf));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => renew('/token/ip/renew', { token_ids: ids, days: 2 }, 'burst', 'en', cy)),
    );
    for (const answer of answers)
      expect(answer.json(), answer.body).toMatchObject({ code: 0, data: { success: 2, failed: 0, total: 2, cost: 8 } });
    expect(new Set(answers.map((a) => a.json().data.balance)).size).toBe(1);
    expect(await balanceFen(t.deps, cy.userId)).toBe(before - 800);
    expect(await debitsOf(cy.userId, 'burst')).toHaveLength(1);
    expect(await Promise.all(ids.map(expiryOf))).toEqual(expiries.map((e) => e + 2 * 86_400_000));
    expect(await findLedgerViolations(t.db.db)).toEqual([]);
  });
});
