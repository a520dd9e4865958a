import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payOrders } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TMemoryMailer, type TTestApp } from '../../../../test/helpers';
import { startFakeWechatPay, type TFakeWechatPay } from '../../../../test/payments/fake-wechat-pay';
import { balanceFen, createUser, request, type TTestUser } from '../../proxies/proxies-test-kit';
import { seedChargeOptions } from '../payments-charge.service';
import { reconcileStaleOrders } from '../payments-settle.service';

// WeChat Pay API v3 Native against a local fake, with keys generated here.
describe('top-up with WeChat Pay', () => {
  let fake: TFakeWechatPay;
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let ann: TTestUser;

  beforeAll(async () => {
    fake = await startFakeWechatPay();
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, config: { ...fake.env, PAY_ORDER_TTL_MIN: '1' } });
    await seedChargeOptions(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const post = (n: { rawBody: string; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/pay/notify/wechat', payload: n.rawBody, headers: n.headers });
  const statusOf = async (id: string) => (await t.db.db.select().from(payOrders).where(eq(payOrders.id, id)))[0].status;
  const charge = async (amount: string) => {
    const res = await request(t.app, 'POST', `/pay/charge/wechat/${amount}`, { token: ann.token });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  const paid = (orderId: string, total: number, extra: Record<string, unknown> = {}) => ({
    out_trade_no: orderId,
    transaction_id: `4200001${randomBytes(6).toString('hex')}`,
    trade_state: 'SUCCESS',
    amount: { total, payer_total: total, currency: 'CNY' },
    ...extra,
  });

  it('answers the code_url of a Native order the fake accepted as signed by us, in fen', async () => {
    const order = await charge('100');
    expect(order).toMatchObject({ mode: 'qr', qr_code: `weixin://wxpay/bizpayurl?pr=${order.order_id}`, price: 102 });
    expect(fake.requests.at(-1)).toMatchObject({
      isSignedByMerchant: true,
      body: {
        out_trade_no: order.order_id,
        amount: { total: 10_200, currency: 'CNY' },
        mchid: fake.env.WECHAT_PAY_MCHID,
        appid: fake.env.WECHAT_PAY_APPID,
      },
    });
  });

  it('refuses the redirect mode, which Native pay does not offer, naming the field in zh and en', async () => {
    const en = await request(t.app, 'POST', '/pay/charge/wechat/100', { token: ann.token, body: { mode: 'redirect' } });
    expect([en.statusCode, en.json().data.issues[0]]).toEqual([
      400,
      { path: 'mode', message: 'This payment method does not offer this pay mode' },
    ]);
    const zh = await request(t.app, 'POST', '/pay/charge/wechat/100', {
      token: ann.token,
      lang: 'zh',
      body: { mode: 'redirect' },
    });
    expect(zh.json().data.issues[0].message).toBe('该支付方式不支持此支付形式');
  });

  it('credits a genuine notification once (answers 204 to it and its resends)', async () => {
    const order = await charge('100');
    const before = await balanceFen(t.deps, ann.userId);
    const n = fake.notification(paid(order.order_id, 10_200));
    for (let i = 0; i < 3; i++) expect((await post(n)).statusCode).toBe(204);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 10_000);
    expect(await statusOf(order.order_id)).toBe('success');
  });

  it('refuses a tampered body, a forged signature, an unknown serial, an old timestamp, another key, merchant or app, and a wrong amount', async () => {
    const order = await charge('200');
    const before = await balanceFen(t.deps, ann.userId);
    const forger = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const genuine = fake.notification(paid(order.order_id, 20_300));
    const cases = [
      { ...genuine, rawBody: genuine.rawBody.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS ') },
      fake.notification(paid(order.order_id, 20_300), { signWith: forger.privateKey }),
      fake.notification(paid(order.order_id, 20_300), { serial: 'FFFF' }),
      fake.notification(paid(order.order_id, 20_300), { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      fake.notification(paid(order.order_id, 20_300), { apiV3Key: randomBytes(16).toString('hex') }),
      fake.notification(paid(order.order_id, 20_300, { mchid: '1900000999' })),
      fake.notification(paid(order.order_id, 20_300, { appid: 'wx0000000000000000' })),
      fake.notification(paid(order.order_id, 203)),
    ];
    for (const [i, n] of cases.entries()) {
      const res = await post(n);
      expect(res.statusCode, `case ${i}`).toBe(400);
      expect(res.json(), `case ${i}`).toMatchObject({ code: 'FAIL' });
    }
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await statusOf(order.order_id)).toBe('pending');
  });

  it('reconciles a stale order with the order query: paid is credited, not found times out', async () => {
    const paidOrder = await charge('10');
    const unpaid = await charge('10');
    fake.transactions.set(paidOrder.order_id, { trade_state: 'SUCCESS', transaction_id: '4200001999', total: 1110 });
    const before = await balanceFen(t.deps, ann.userId);
    // Orders live one minute here; the job looks at those past their time.
    await t.db.db
      .update(payOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payOrders.status, 'pending'));
    await reconcileStaleOrders(t.deps);
    expect(await statusOf(paidOrder.order_id)).toBe('success');
    expect(await statusOf(unpaid.order_id)).toBe('timeout');
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
  });
});
