import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveRoles } from '@proxy/contract';
import { payNotifications, payOrders } from '@proxy/db';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  describeOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { balanceFen, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import { seedChargeOptions } from './payments-charge.service';
import { receiveNotification, reconcileStaleOrders } from './payments-settle.service';
import type { createSandboxProvider } from './providers/sandbox';

// Money in with the sandbox provider: the same verification and settlement a real provider's notification goes through.
describe('top-up with the sandbox provider', () => {
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let ann: TTestUser;
  let ben: TTestUser;
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, clock, config: { PAY_SANDBOX: 'true' } });
    await seedChargeOptions(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
  });
  afterAll(async () => {
    await t?.close();
  });

  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  const charge = (user: TTestUser, amount: string, lang = 'en') =>
    request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token, lang });
  const orderRow = async (id: string) => (await t.db.db.select().from(payOrders).where(eq(payOrders.id, id)))[0];
  const notify = (orderId: string, priceFen: number, result: 'success' | 'failure' = 'success') =>
    receiveNotification(t.deps, 'sandbox', sandbox().notificationFor({ id: orderId, priceFen }, result), '127.0.0.1');

  it('lists the seeded options, the sandbox as the only method, the fee rule and the bounds', async () => {
    const res = await request(t.app, 'GET', '/pay/option/list', { token: ann.token });
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data;
    expect(data.record.map((o: { amount: number }) => o.amount)).toEqual([10, 50, 100, 200, 500, 1000]);
    expect(data.record.every((o: { gift: number }) => o.gift === 0)).toBe(true);
    expect(data.methods).toEqual([{ method: 'sandbox', modes: ['redirect', 'qr'] }]);
    expect(data).toMatchObject({ fee: { percent: 1, fixed: 1 }, min_amount: 1, max_amount: 50000, sandbox: true });
  });

  it('tops up 100 yuan: pays 102, receives 100, balance 115, total_balance 100 and the role "user", a notification and an e-mail', async () => {
    const res = await charge(ann, '100');
    expect(res.json().code, res.body).toBe(0);
    const order = res.json().data;
    expect(order).toMatchObject({
      status: 'pending',
      amount: 100,
      fee: 2,
      price: 102,
      gift: 0,
      value: 100,
      mode: 'redirect',
      is_sandbox: true,
      method: 'sandbox',
    });
    expect(order.pay_url).toBe(`${t.deps.config.publicUrl}/api/pay/sandbox/${order.order_id}`);
    // The sandbox's page shows the order; paying there credits it.
    const page = await t.app.inject({ method: 'GET', url: `/api/pay/sandbox/${order.order_id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('¥102.00');
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/pay/sandbox/${order.order_id}`,
      payload: 'result=success',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${t.deps.config.publicUrl}/charge?order=${order.order_id}`);
    expect(await balanceFen(t.deps, ann.userId)).toBe(11_500);
    const info = (await request(t.app, 'GET', '/user/info', { token: ann.token })).json().data;
    expect(info.total_balance).toBe(100);
    expect(deriveRoles(info.total_balance)).toEqual(['user']);
    const shown = (await request(t.app, 'GET', `/pay/order/${order.order_id}`, { token: ann.token })).json().data;
    expect(shown).toMatchObject({ status: 'success', is_completed: true, is_paid_late: false });
    expect(shown.paid_at).not.toBeNull();
    const notes = (await request(t.app, 'GET', '/user/notification/list', { token: ann.token })).json();
    expect(JSON.stringify(notes)).toContain('Top-up received');
    expect(mailer.last(ann.email)?.text).toContain(order.order_id);
  });

  it('lists the order in the bills and the recharge in the statement, whose balances equal the ledger', async () => {
    const bills = (await request(t.app, 'GET', '/pay/record/list?status=success', { token: ann.token })).json().data;
    expect(bills.total).toBe(1);
    expect(bills.records[0]).toMatchObject({
      status: 'success',
      price: 102,
      value: 100,
      fee: 2,
      gift: 0,
      description: 'Balance top-up ¥100.00',
    });
    const zh = (await request(t.app, 'GET', '/pay/record/list', { token: ann.token, lang: 'zh' })).json().data;
    expect(zh.records[0].description).toBe('余额充值 ¥100.00');
    const statement = (await request(t.app, 'GET', '/pay/ledger/list', { token: ann.token })).json().data;
    expect(statement.records.map((l: { reason: string }) => l.reason)).toEqual(['recharge', 'trial']);
    expect(statement.records[0]).toMatchObject({ amount: 100, balance_after: 115 });
    const sums = await sumEntryDeltas(t.db.db, ann.userId);
    expect(sums.availableFen).toBe(await balanceFen(t.deps, ann.userId));
    const onlyTrial = (await request(t.app, 'GET', '/pay/ledger/list?reason=trial', { token: ann.token })).json().data;
    expect(onlyTrial.total).toBe(1);
    const csv = await request(t.app, 'GET', '/pay/record/export', { token: ann.token });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('102');
  });

  it('refuses amounts that are not canonical yuan or out of bounds, and methods that are off, in the caller language', async () => {
    for (const amount of ['0100', '1e2', '100.123', '1.', '.5', 'abc', '0x64']) {
      const res = await charge(ann, amount);
      expect(res.statusCode, amount).toBe(400);
      expect(res.json().data.issues[0], amount).toMatchObject({ path: 'amount' });
    }
    const zh = await charge(ann, '1e2', 'zh');
    expect(zh.json().data.issues[0].message).toContain('最多两位小数');
    const small = await charge(ann, '0.5');
    expect(small.json().data.issues[0].message).toBe('The amount must be between 1 and 50000 yuan');
    const big = await charge(ann, '50000.01');
    expect(big.statusCode).toBe(400);
    expect((await charge(ann, '100.50')).json().data).toMatchObject({ amount: 100.5, fee: 2.01, price: 102.51 });
    const smallZh = await charge(ann, '0.5', 'zh');
    expect(smallZh.json().data.issues[0].message).toBe('充值金额须在 1 至 50000 元之间');
    for (const lang of ['en', 'zh']) {
      const badMode = await request(t.app, 'POST', '/pay/charge/sandbox/100', {
        token: ann.token,
        lang,
        body: { mode: 'card' },
      });
      expect(badMode.statusCode).toBe(400);
      expect(badMode.json().data.issues[0].path).toBe('mode');
      expect(badMode.json().data.issues[0].message).toBe(
        lang === 'zh'
          ? '支付形式须为 redirect（跳转支付页）或 qr（扫码）'
          : 'The pay mode must be redirect (a payment page) or qr (a QR code)',
      );
    }
    const page = await t.app.inject({
      method: 'POST',
      url: `/api/pay/sandbox/${(await charge(ann, '10')).json().data.order_id}`,
      payload: 'result=maybe',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'zh' },
    });
    expect(page.statusCode).toBe(400);
    expect(page.json().data.issues[0].path).toBe('result');
    const off = await request(t.app, 'POST', '/pay/charge/alipay/100', { token: ann.token });
    expect([off.statusCode, off.json().code]).toEqual([400, 5001]);
    const unknown = await request(t.app, 'POST', '/pay/charge/paypal/100', { token: ann.token });
    expect(unknown.json().data.issues[0].message).toBe(
      'The payment method must be alipay, wechat, sandbox, usdt_trc20 or usdt_erc20',
    );
  });

  it("cancels a pending order once; another user's order is not found; a payment that still arrives is credited and marked late", async () => {
    const order = (await charge(ben, '10')).json().data;
    expect((await request(t.app, 'POST', `/pay/cancel/${order.order_id}`, { token: ann.token })).statusCode).toBe(404);
    const cancelled = await request(t.app, 'POST', `/pay/cancel/${order.order_id}`, { token: ben.token });
    expect(cancelled.json().data.status).toBe('cancelled');
    const again = await request(t.app, 'POST', `/pay/cancel/${order.order_id}`, { token: ben.token });
    expect([again.statusCode, again.json().code]).toEqual([409, 5002]);
    const before = await balanceFen(t.deps, ben.userId);
    await notify(order.order_id, Math.round(order.price * 100));
    expect(await balanceFen(t.deps, ben.userId)).toBe(before + 1000);
    expect(await orderRow(order.order_id)).toMatchObject({ status: 'success', isPaidLate: true });
  });

  it('credits a notification replayed 20 times concurrently exactly once', async () => {
    const order = (await charge(ben, '50')).json().data;
    const before = await balanceFen(t.deps, ben.userId);
    const signed = sandbox().notificationFor(
      { id: order.order_id, priceFen: Math.round(order.price * 100) },
      'success',
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => receiveNotification(t.deps, 'sandbox', signed, '127.0.0.1')),
    );
    expect(answers.every((a) => a?.body === 'success')).toBe(true);
    expect(await balanceFen(t.deps, ben.userId)).toBe(before + 5000);
    const logged = await t.db.db.select().from(payNotifications).where(eq(payNotifications.orderId, order.order_id));
    expect(logged.filter((l) => l.result === 'credited')).toHaveLength(1);
    expect(logged.filter((l) => l.result === 'replay')).toHaveLength(19);
    const sums = await sumEntryDeltas(t.db.db, ben.userId);
    expect(sums.availableFen).toBe(before + 5000);
  });

  it('refuses a tampered body, a forged signature, a wrong amount and an unknown order: nothing credited, each logged with its reason', async () => {
    const order = (await charge(ben, '200')).json().data;
    const priceFen = Math.round(order.price * 100);
    const before = await balanceFen(t.deps, ben.userId);
    const genuine = sandbox().notificationFor({ id: order.order_id, priceFen }, 'success');
    const cases = [
      {
        rawBody: genuine.rawBody.replace(`"paid_fen":${priceFen}`, `"paid_fen":${priceFen + 100}`),
        headers: genuine.headers,
      },
      { rawBody: genuine.rawBody, headers: { ...genuine.headers, 'x-sandbox-signature': 'ab'.repeat(32) } },
      sandbox().notificationFor({ id: order.order_id, priceFen: priceFen - 1 }, 'success'),
      sandbox().notificationFor({ id: 'R20260101000000DEADBEEF', priceFen }, 'success'),
    ];
    for (const incoming of cases) {
      const answer = await receiveNotification(t.deps, 'sandbox', incoming, '203.0.113.9');
      expect(answer?.status).toBe(400);
    }
    expect(await balanceFen(t.deps, ben.userId)).toBe(before);
    expect((await orderRow(order.order_id)).status).toBe('pending');
    const refused = await t.db.db.select().from(payNotifications).where(eq(payNotifications.ip, '203.0.113.9'));
    expect(refused.map((r) => r.reason)).toEqual([
      'bad signature',
      'bad signature',
      `paid ${priceFen - 1} fen, the order's price is ${priceFen}`,
      'unknown order R20260101000000DEADBEEF',
    ]);
  });

  it('times out a stale pending order (the sandbox has nothing paid), then credits a late genuine payment', async () => {
    const order = (await charge(ann, '10')).json().data;
    clock.advance(16 * 60_000);
    expect(await reconcileStaleOrders(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await orderRow(order.order_id)).status).toBe('timeout');
    expect(await reconcileStaleOrders(t.deps)).toBe(0);
    const before = await balanceFen(t.deps, ann.userId);
    await notify(order.order_id, Math.round(order.price * 100));
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
    const shown = (await request(t.app, 'GET', `/pay/order/${order.order_id}`, { token: ann.token })).json().data;
    expect(shown).toMatchObject({ status: 'success', is_paid_late: true });
  });

  it('gives the role "user" once real recharges pass 1 yuan (spec section 6), never for trial credit', async () => {
    const cy = await createUser(t.app, mailer, 'cy');
    const roles = async () =>
      deriveRoles((await request(t.app, 'GET', '/user/info', { token: cy.token })).json().data.total_balance);
    expect(await roles()).toEqual([]);
    const first = (await charge(cy, '1')).json().data;
    await notify(first.order_id, Math.round(first.price * 100));
    expect(await roles()).toEqual([]);
    const second = (await charge(cy, '1')).json().data;
    await notify(second.order_id, Math.round(second.price * 100));
    expect(await roles()).toEqual(['user']);
  });

  it('marks an order failed when the provider reports a failure, once', async () => {
    const order = (await charge(ann, '10')).json().data;
    await notify(order.order_id, Math.round(order.price * 100), 'failure');
    expect((await orderRow(order.order_id)).status).toBe('failure');
  });
});

describeOnPostgres('top-up settlement on PostgreSQL with two API instances', () => {
  it('credits one order once when both instances settle its notifications concurrently', async () => {
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer, config: { PAY_SANDBOX: 'true' } });
    const second = await createTestApp({ mailer, config: { PAY_SANDBOX: 'true' } });
    try {
      await seedChargeOptions(t.deps);
      const cy = await createUser(t.app, mailer, 'cy');
      const order = (await request(t.app, 'POST', '/pay/charge/sandbox/100', { token: cy.token })).json().data;
      const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
      const signed = sandbox.notificationFor({ id: order.order_id, priceFen: 10_200 }, 'success');
      // The second app shares the first one's database through its own pool.
      const otherDeps = { ...second.deps, db: t.db.db };
      const before = await balanceFen(t.deps, cy.userId);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          receiveNotification(i % 2 ? otherDeps : t.deps, 'sandbox', signed, '127.0.0.1'),
        ),
      );
      expect(await balanceFen(t.deps, cy.userId)).toBe(before + 10_000);
    } finally {
      await second.close();
      await t.close();
    }
  });
});
