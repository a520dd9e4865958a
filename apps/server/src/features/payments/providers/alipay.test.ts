import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payNotifications, payOrders } from '@proxy/db';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  itOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../../test/helpers';
import { startFakeAlipay, type TFakeAlipay } from '../../../../test/payments/fake-alipay';
import { balanceFen, createUser, request, type TTestUser } from '../../proxies/proxies-test-kit';
import { seedChargeOptions } from '../payments-charge.service';
import { reconcileStaleOrders } from '../payments-settle.service';

// Alipay through the real alipay-sdk against a local fake gateway, with keys generated here.
describe('top-up with Alipay', () => {
  let fake: TFakeAlipay;
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let ann: TTestUser;
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    fake = await startFakeAlipay({ sellerId: '2088000000000001' });
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, clock, config: fake.env });
    await seedChargeOptions(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const post = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/alipay',
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    });
  const statusOf = async (id: string) => (await t.db.db.select().from(payOrders).where(eq(payOrders.id, id)))[0].status;
  const paidParams = (orderId: string, total: string, extra: Record<string, string> = {}) => ({
    app_id: fake.env.ALIPAY_APP_ID,
    seller_id: '2088000000000001',
    out_trade_no: orderId,
    trade_no: `2026112222001400${orderId.slice(-8)}`,
    total_amount: total,
    trade_status: 'TRADE_SUCCESS',
    ...extra,
  });

  it('offers Alipay alone, in redirect and QR modes', async () => {
    const data = (await request(t.app, 'GET', '/pay/option/list', { token: ann.token })).json().data;
    expect(data.methods).toEqual([{ method: 'alipay', modes: ['redirect', 'qr'] }]);
    expect(data.sandbox).toBe(false);
  });

  it('answers a page-pay URL of the gateway, signed, for the redirect mode', async () => {
    const res = await request(t.app, 'POST', '/pay/charge/alipay/100', { token: ann.token });
    expect(res.json().code, res.body).toBe(0);
    const payUrl = new URL(res.json().data.pay_url);
    expect(`${payUrl.origin}${payUrl.pathname}`).toBe(fake.gateway);
    expect(payUrl.searchParams.get('method')).toBe('alipay.trade.page.pay');
    expect(payUrl.searchParams.get('sign')).toBeTruthy();
    expect(JSON.parse(payUrl.searchParams.get('biz_content') ?? '{}')).toMatchObject({
      out_trade_no: res.json().data.order_id,
      total_amount: '102.00',
    });
  });

  it('answers the QR code of a precreate the gateway accepted as signed by us', async () => {
    const res = await request(t.app, 'POST', '/pay/charge/alipay/50', { token: ann.token, body: { mode: 'qr' } });
    expect(res.json().code, res.body).toBe(0);
    const order = res.json().data;
    expect(order.qr_code).toBe(`https://qr.alipay.com/fake${order.order_id}`);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'alipay.trade.precreate',
      isSignedByApp: true,
      biz: { total_amount: '51.50' },
    });
  });

  it('credits a genuine notification once and answers "success" to it and its resends', async () => {
    const order = (await request(t.app, 'POST', '/pay/charge/alipay/100', { token: ann.token })).json().data;
    const before = await balanceFen(t.deps, ann.userId);
    const body = fake.notification(paidParams(order.order_id, '102.00'));
    for (let i = 0; i < 3; i++) {
      const res = await post(body);
      expect([res.statusCode, res.body]).toEqual([200, 'success']);
    }
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 10_000);
    expect(await statusOf(order.order_id)).toBe('success');
  });

  it('refuses a tampered body, a forged signature, another app or seller, and a wrong amount: nothing credited', async () => {
    const order = (await request(t.app, 'POST', '/pay/charge/alipay/200', { token: ann.token })).json().data;
    const before = await balanceFen(t.deps, ann.userId);
    const forger = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const genuine = fake.notification(paidParams(order.order_id, '203.00'));
    const cases: [string, string][] = [
      [genuine.replace('total_amount=203.00', 'total_amount=2030.00'), 'bad signature'],
      [fake.notification(paidParams(order.order_id, '203.00'), forger.privateKey), 'bad signature'],
      [
        fake.notification(paidParams(order.order_id, '203.00', { app_id: '2026999999999999' })),
        'app_id 2026999999999999 is not ours',
      ],
      [
        fake.notification(paidParams(order.order_id, '203.00', { seller_id: '2088999999999999' })),
        'seller_id 2088999999999999 is not ours',
      ],
      [fake.notification(paidParams(order.order_id, '2.03')), `paid 203 fen, the order's price is 20300`],
    ];
    for (const [body, reason] of cases) {
      const res = await post(body);
      expect([res.statusCode, res.body], reason).toEqual([400, 'fail']);
    }
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await statusOf(order.order_id)).toBe('pending');
    const logged = await t.db.db.select().from(payNotifications).where(eq(payNotifications.result, 'refused'));
    expect(logged.map((l) => l.reason)).toEqual(expect.arrayContaining(cases.map(([, reason]) => reason)));
  });

  it('refuses a genuine notification whose transaction already paid another order, as Alipay expects a refusal: nothing changes', async () => {
    const first = (await request(t.app, 'POST', '/pay/charge/alipay/20', { token: ann.token })).json().data;
    const second = (await request(t.app, 'POST', '/pay/charge/alipay/20', { token: ann.token })).json().data;
    const tradeNo = '2026112222001400REUSED01';
    expect((await post(fake.notification(paidParams(first.order_id, '21.20', { trade_no: tradeNo })))).body).toBe(
      'success',
    );
    const before = await balanceFen(t.deps, ann.userId);
    const reused = await post(fake.notification(paidParams(second.order_id, '21.20', { trade_no: tradeNo })));
    expect([reused.statusCode, reused.body]).toEqual([400, 'fail']);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await statusOf(second.order_id)).toBe('pending');
    const logged = await t.db.db.select().from(payNotifications).where(eq(payNotifications.orderId, second.order_id));
    expect(logged.map((l) => [l.result, l.reason])).toEqual([
      ['refused', `transaction ${tradeNo} already paid order ${first.order_id}`],
    ]);
  });

  itOnPostgres('credits one order when notifications of two orders naming one transaction race', async () => {
    const ben = await createUser(t.app, mailer, 'ben-race');
    const orders = [
      (await request(t.app, 'POST', '/pay/charge/alipay/30', { token: ann.token })).json().data,
      (await request(t.app, 'POST', '/pay/charge/alipay/30', { token: ben.token })).json().data,
    ];
    const before = (await balanceFen(t.deps, ann.userId)) + (await balanceFen(t.deps, ben.userId));
    const tradeNo = '2026112222001400RACE0001';
    const bodies = orders.map((o) => fake.notification(paidParams(o.order_id, '31.30', { trade_no: tradeNo })));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(bodies[i % 2])));
    expect(answers.every((a) => [200, 400].includes(a.statusCode))).toBe(true);
    const statuses = await Promise.all(orders.map((o) => statusOf(o.order_id)));
    expect(statuses.filter((s) => s === 'success')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(1);
    const after = (await balanceFen(t.deps, ann.userId)) + (await balanceFen(t.deps, ben.userId));
    expect(after - before).toBe(3000);
  });

  it('acknowledges WAIT_BUYER_PAY without changing anything, and fails the order on TRADE_CLOSED', async () => {
    const order = (await request(t.app, 'POST', '/pay/charge/alipay/10', { token: ann.token })).json().data;
    expect(
      (await post(fake.notification(paidParams(order.order_id, '11.10', { trade_status: 'WAIT_BUYER_PAY' })))).body,
    ).toBe('success');
    expect(await statusOf(order.order_id)).toBe('pending');
    expect(
      (await post(fake.notification(paidParams(order.order_id, '11.10', { trade_status: 'TRADE_CLOSED' })))).body,
    ).toBe('success');
    expect(await statusOf(order.order_id)).toBe('failure');
  });

  it('reconciles a stale order with the trade query: paid is credited, unknown times out', async () => {
    const paid = (await request(t.app, 'POST', '/pay/charge/alipay/10', { token: ann.token })).json().data;
    const unpaid = (await request(t.app, 'POST', '/pay/charge/alipay/10', { token: ann.token })).json().data;
    fake.trades.set(paid.order_id, {
      trade_status: 'TRADE_SUCCESS',
      trade_no: '2026112222001499990001',
      total_amount: '11.10',
    });
    const before = await balanceFen(t.deps, ann.userId);
    clock.advance(16 * 60_000);
    await reconcileStaleOrders(t.deps);
    expect(await statusOf(paid.order_id)).toBe('success');
    expect(await statusOf(unpaid.order_id)).toBe('timeout');
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
  });
});
