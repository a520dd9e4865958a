import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDT_METHODS, type TPayOrder } from '@proxy/contract';
import { ledgerEntries, openDb, payOrders, usdtTransfers, workOrderMessages, workOrders } from '@proxy/db';
import { buildApp } from '../../app';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  createTestConfig,
  itOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { startFakeAlipay, type TFakeAlipay } from '../../../test/payments/fake-alipay';
import { startFakeEthereum, startFakeTron, type TFakeChain } from '../../../test/payments/fake-chains';
import { startFakeWechatPay, type TFakeWechatPay } from '../../../test/payments/fake-wechat-pay';
import { balanceFen, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { CHECKS_PER_ORDER, CHECK_WINDOW_MS } from './payments-check.service';
import { seedChargeOptions } from './payments-charge.service';
import { reconcileStaleOrders } from './payments-settle.service';
import { usdtProviderOf } from './providers/usdt';
import { watchUsdtTransfers } from './usdt-watcher.service';

// "I have paid": the customer makes us ask the provider (its local fake) about an order whose notification never came.

type TTest = { t: TTestApp };

const orderRow = async ({ t }: TTest, id: string) =>
  (await t.db.db.select().from(payOrders).where(eq(payOrders.id, id)))[0];
const creditsOf = async ({ t }: TTest, orderId: string) =>
  t.db.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.reference, orderId), eq(ledgerEntries.reason, 'recharge')));
const workOrdersOf = async ({ t }: TTest, userId: number) => {
  const rows = await t.db.db.select().from(workOrders).where(eq(workOrders.userId, userId));
  return Promise.all(
    rows.map(async (w) => ({
      ...w,
      messages: (await t.db.db.select().from(workOrderMessages).where(eq(workOrderMessages.workOrderId, w.id))).map(
        (m) => m.content,
      ),
    })),
  );
};

describe('"I have paid" with Alipay', () => {
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));
  const ctx = {} as TTest;
  let fake: TFakeAlipay;
  let mailer: TMemoryMailer;
  let ann: TTestUser;
  let ben: TTestUser;

  beforeAll(async () => {
    fake = await startFakeAlipay();
    mailer = createMemoryMailer();
    ctx.t = await createTestApp({ mailer, clock, config: fake.env });
    await seedChargeOptions(ctx.t.deps);
    ann = await createUser(ctx.t.app, mailer, 'ann');
    ben = await createUser(ctx.t.app, mailer, 'ben');
  });
  afterAll(async () => {
    await ctx.t?.close();
    await fake?.close();
  });

  const charge = async (user: TTestUser, amount: string): Promise<TPayOrder> => {
    const res = await request(ctx.t.app, 'POST', `/pay/charge/alipay/${amount}`, { token: user.token });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  const check = (user: TTestUser, orderId: string, lang?: 'zh' | 'en') =>
    request(ctx.t.app, 'POST', `/pay/check/${orderId}`, { token: user.token, lang });
  const tradeNo = () => `2026112222001${randomBytes(6).toString('hex')}`;

  it('credits a paid order whose notification was lost, once, however often it is clicked', async () => {
    const order = await charge(ann, '100');
    const before = await balanceFen(ctx.t.deps, ann.userId);
    const nothing = await check(ann, order.order_id);
    expect(nothing.json().data).toMatchObject({
      result: 'not_found',
      work_order_id: null,
      order: { status: 'pending' },
    });
    fake.trades.set(order.order_id, { trade_status: 'TRADE_SUCCESS', trade_no: tradeNo(), total_amount: '102.00' });
    const res = await check(ann, order.order_id);
    expect(res.json().data, res.body).toMatchObject({ result: 'credited', order: { status: 'success' } });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'alipay.trade.query',
      biz: { out_trade_no: order.order_id },
      isSignedByApp: true,
    });
    const again = await check(ann, order.order_id);
    expect(again.json().data.result).toBe('already_paid');
    expect(await balanceFen(ctx.t.deps, ann.userId)).toBe(before + 10_000);
    expect(await creditsOf(ctx, order.order_id)).toHaveLength(1);
    expect(mailer.last(ann.email)?.text).toContain(order.order_id);
  });

  it('credits an order that expired before it was paid (late), and refuses cancelled orders and other customers', async () => {
    const order = await charge(ann, '10');
    clock.advance(16 * 60_000);
    await reconcileStaleOrders(ctx.t.deps);
    expect((await orderRow(ctx, order.order_id)).status).toBe('timeout');
    fake.trades.set(order.order_id, { trade_status: 'TRADE_SUCCESS', trade_no: tradeNo(), total_amount: '11.10' });
    expect((await check(ben, order.order_id)).statusCode).toBe(404);
    const before = await balanceFen(ctx.t.deps, ann.userId);
    expect((await check(ann, order.order_id)).json().data.result).toBe('credited');
    expect(await orderRow(ctx, order.order_id)).toMatchObject({ status: 'success', isPaidLate: true });
    expect(await balanceFen(ctx.t.deps, ann.userId)).toBe(before + 1000);

    const cancelled = await charge(ann, '10');
    await request(ctx.t.app, 'POST', `/pay/cancel/${cancelled.order_id}`, { token: ann.token });
    const en = await check(ann, cancelled.order_id, 'en');
    expect([en.statusCode, en.json().data.error, en.json().msg]).toEqual([
      409,
      'PAY_ORDER_NOT_CHECKABLE',
      'Only a pending or expired order can be checked for a payment',
    ]);
    expect((await check(ann, cancelled.order_id, 'zh')).json().msg).toBe('只有待支付或已超时的订单可以查询支付结果');
  });

  it('credits nothing for an answer that does not match the order: one work order carries the evidence to the operator', async () => {
    const order = await charge(ben, '50');
    const trade = tradeNo();
    fake.trades.set(order.order_id, { trade_status: 'TRADE_SUCCESS', trade_no: trade, total_amount: '0.51' });
    const before = await balanceFen(ctx.t.deps, ben.userId);
    const first = await check(ben, order.order_id, 'en');
    expect(first.json().data, first.body).toMatchObject({ result: 'referred', order: { status: 'pending' } });
    const second = await check(ben, order.order_id, 'en');
    expect(second.json().data.work_order_id).toBe(first.json().data.work_order_id);
    expect(await balanceFen(ctx.t.deps, ben.userId)).toBe(before);
    const referred = await workOrdersOf(ctx, ben.userId);
    expect(referred).toHaveLength(1);
    expect(referred[0]).toMatchObject({
      id: first.json().data.work_order_id,
      category: 'billing',
      status: 'open',
      subject: `Payment of recharge order ${order.order_id} to be checked`,
    });
    expect(referred[0].messages[0]).toContain(`alipay transaction ${trade}: paid ¥0.51`);
    expect(referred[0].messages[0]).toContain("paid 51 fen, the order's price is 5150");
  });

  it(`allows ${CHECKS_PER_ORDER} checks of an order per ${CHECK_WINDOW_MS / 60_000} minutes, then answers 429 with Retry-After`, async () => {
    const order = await charge(ben, '20');
    for (let i = 0; i < CHECKS_PER_ORDER; i++)
      expect((await check(ben, order.order_id)).json().data.result).toBe('not_found');
    const limited = await check(ben, order.order_id, 'en');
    expect([limited.statusCode, limited.json().data.error, limited.headers['retry-after']]).toEqual([
      429,
      'RATE_LIMITED',
      String(CHECK_WINDOW_MS / 1000),
    ]);
    clock.advance(CHECK_WINDOW_MS);
    expect((await check(ben, order.order_id)).json().data.result).toBe('not_found');
  });

  it('allows 20 checks per account in the window, whichever orders', async () => {
    clock.advance(CHECK_WINDOW_MS);
    const cy = await createUser(ctx.t.app, mailer, 'cy');
    const orders = [];
    for (let i = 0; i < 5; i++) orders.push(await charge(cy, '10'));
    for (let i = 0; i < 20; i++) expect((await check(cy, orders[i % 4].order_id)).json().data.result).toBe('not_found');
    expect((await check(cy, orders[4].order_id)).statusCode).toBe(429);
  });
});

describe('"I have paid" with WeChat Pay', () => {
  const ctx = {} as TTest;
  let fake: TFakeWechatPay;
  let ann: TTestUser;

  beforeAll(async () => {
    fake = await startFakeWechatPay();
    const mailer = createMemoryMailer();
    ctx.t = await createTestApp({ mailer, config: fake.env });
    await seedChargeOptions(ctx.t.deps);
    ann = await createUser(ctx.t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await ctx.t?.close();
    await fake?.close();
  });

  it('asks the order query and credits a paid order whose notification was lost, once', async () => {
    const res = await request(ctx.t.app, 'POST', '/pay/charge/wechat/10', { token: ann.token });
    const order = res.json().data as TPayOrder;
    fake.transactions.set(order.order_id, { trade_state: 'SUCCESS', transaction_id: '4200001777', total: 1110 });
    const before = await balanceFen(ctx.t.deps, ann.userId);
    const check = () => request(ctx.t.app, 'POST', `/pay/check/${order.order_id}`, { token: ann.token });
    expect((await check()).json().data.result).toBe('credited');
    expect((await check()).json().data.result).toBe('already_paid');
    expect(fake.requests.at(-1)?.path).toContain(`/v3/pay/transactions/out-trade-no/${order.order_id}`);
    expect(await balanceFen(ctx.t.deps, ann.userId)).toBe(before + 1000);
    expect(await creditsOf(ctx, order.order_id)).toHaveLength(1);
  });
});

describe.each([
  { network: 'trc20', start: startFakeTron },
  { network: 'erc20', start: startFakeEthereum },
] as const)('"I have paid" with USDT on $network', ({ network, start }) => {
  const method = USDT_METHODS[network];
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));
  const ctx = {} as TTest;
  let chain: TFakeChain;
  let ann: TTestUser;

  beforeAll(async () => {
    chain = await start(() => clock.now().getTime());
    const mailer = createMemoryMailer();
    ctx.t = await createTestApp({ mailer, clock, config: { ...chain.env, USDT_CNY_RATE: '7.20' } });
    await seedChargeOptions(ctx.t.deps);
    ann = await createUser(ctx.t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await ctx.t?.close();
    await chain?.close();
  });

  const charge = async (amount: string): Promise<TPayOrder> => {
    const res = await request(ctx.t.app, 'POST', `/pay/charge/${method}/${amount}`, { token: ann.token });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  const unitsOf = (order: TPayOrder) => {
    const [whole, fraction = ''] = order.crypto!.amount.split('.');
    return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  };
  const check = (orderId: string) => request(ctx.t.app, 'POST', `/pay/check/${orderId}`, { token: ann.token });

  it('finds a transfer of the exact amount on the chain and credits its expired order once; the watcher then credits nothing more', async () => {
    const order = await charge('100');
    clock.advance(40 * 60_000);
    await reconcileStaleOrders(ctx.t.deps);
    expect((await orderRow(ctx, order.order_id)).status).toBe('timeout');
    chain.send({ amount: unitsOf(order) - 10_000n }); // another amount: not this order's
    expect((await check(order.order_id)).json().data.result).toBe('not_found');
    const tx = chain.send({ amount: unitsOf(order) });
    chain.finalize();
    const before = await balanceFen(ctx.t.deps, ann.userId);
    const res = await check(order.order_id);
    expect(res.json().data, res.body).toMatchObject({ result: 'credited', order: { status: 'success' } });
    expect((await check(order.order_id)).json().data.result).toBe('already_paid');
    const provider = usdtProviderOf(ctx.t.deps.payProviders.get(method))!;
    await watchUsdtTransfers(ctx.t.deps, provider);
    expect(await balanceFen(ctx.t.deps, ann.userId)).toBe(before + 10_000);
    expect(await creditsOf(ctx, order.order_id)).toHaveLength(1);
    const [row] = await ctx.t.db.db.select().from(usdtTransfers).where(eq(usdtTransfers.txHash, tx.toLowerCase()));
    expect(row).toMatchObject({ status: 'credited', orderId: order.order_id });
  });

  it('credits nothing for a transfer of the amount after the hold window: it goes to the operator with the evidence', async () => {
    const order = await charge('50');
    clock.advance((30 + ctx.t.deps.config.USDT_LATE_MATCH_MIN + 10) * 60_000);
    await reconcileStaleOrders(ctx.t.deps);
    const tx = chain.send({ amount: unitsOf(order) });
    chain.finalize();
    const before = await balanceFen(ctx.t.deps, ann.userId);
    const res = await check(order.order_id);
    expect(res.json().data, res.body).toMatchObject({ result: 'referred', order: { status: 'timeout' } });
    expect((await check(order.order_id)).json().data.work_order_id).toBe(res.json().data.work_order_id);
    expect(await balanceFen(ctx.t.deps, ann.userId)).toBe(before);
    const [row] = await ctx.t.db.db.select().from(usdtTransfers).where(eq(usdtTransfers.txHash, tx.toLowerCase()));
    expect(row).toMatchObject({ status: 'unmatched', orderId: null });
    const referred = (await workOrdersOf(ctx, ann.userId)).filter((w) => w.subject.includes(order.order_id));
    expect(referred).toHaveLength(1);
    expect(referred[0].messages[0]).toContain(`${network} transaction ${tx.toLowerCase()}`);
    expect(referred[0].messages[0]).toContain(`${order.crypto!.amount} USDT`);
  });
});

describe('"I have paid" on PostgreSQL with two API instances', () => {
  itOnPostgres(
    '20 concurrent clicks across both instances credit a paid order whose notification was lost once',
    async () => {
      const fake = await startFakeAlipay();
      const mailer = createMemoryMailer();
      const first = await createTestApp({ mailer, config: fake.env });
      const secondDb = await openDb({ url: (first.db as { url?: string }).url!, poolSize: 10 });
      const second = await buildApp({ config: createTestConfig(fake.env), database: secondDb, mailer, logger: false });
      try {
        await seedChargeOptions(first.deps);
        const dee = await createUser(first.app, mailer, 'dee');
        const order = (await request(first.app, 'POST', '/pay/charge/alipay/100', { token: dee.token })).json()
          .data as TPayOrder;
        fake.trades.set(order.order_id, {
          trade_status: 'TRADE_SUCCESS',
          trade_no: '2026112222001400CLICKS01',
          total_amount: '102.00',
        });
        const before = await balanceFen(first.deps, dee.userId);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            request(i % 2 ? second.app : first.app, 'POST', `/pay/check/${order.order_id}`, { token: dee.token }),
          ),
        );
        const results = answers.map((a) => (a.statusCode === 429 ? 'limited' : a.json().data.result));
        expect(results.filter((r) => r === 'credited')).toHaveLength(1);
        expect(results.filter((r) => r === 'limited')).toHaveLength(20 - CHECKS_PER_ORDER);
        expect(results.every((r) => ['credited', 'already_paid', 'limited'].includes(r))).toBe(true);
        expect(await balanceFen(first.deps, dee.userId)).toBe(before + 10_000);
        expect(await creditsOf({ t: first }, order.order_id)).toHaveLength(1);
        expect((await orderRow({ t: first }, order.order_id)).status).toBe('success');
      } finally {
        await second.app.close();
        await secondDb.close();
        await first.close();
        await fake.close();
      }
    },
  );
});
