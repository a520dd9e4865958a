import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, payOrders } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { balanceFen, createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { seedChargeOptions } from './payments-charge.service';
import { receiveNotification } from './payments-settle.service';
import type { TProviderOrderState } from './providers/provider';
import type { createSandboxProvider } from './providers/sandbox';

describe('operators: recharge order filters and reconciliation with the provider', () => {
  const clock = createFakeClock(new Date('2026-05-01T10:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  let bob: TTestUser;
  // What the provider says about orders (its network edge): unpaid unless set here.
  const providerStates = new Map<string, TProviderOrderState>();
  let providerDown = false;

  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  const charge = async (user: TTestUser, amount: string) =>
    (await request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token })).json().data as {
      order_id: string;
      price: number;
      value: number;
    };
  const pay = (order: { order_id: string; price: number }) =>
    receiveNotification(
      t.deps,
      'sandbox',
      sandbox().notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
      '127.0.0.1',
    );
  const orders = (query: string, lang = 'en') =>
    request(t.app, 'GET', `/admin/payments/orders?${query}`, { token: oper.token, lang });
  const idsOf = (res: { json(): { data: { records: { order_id: string }[] } } }) =>
    res.json().data.records.map((r) => r.order_id);
  const reconcile = (orderId: string, token = oper.token, lang = 'en') =>
    request(t.app, 'POST', `/admin/payments/orders/${encodeURIComponent(orderId)}/reconcile`, {
      token,
      body: {},
      lang,
    });
  const creditsOf = (orderId: string) =>
    t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.reason, 'recharge'), eq(ledgerEntries.reference, orderId)));

  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { PAY_SANDBOX: 'true' } });
    await seedChargeOptions(t.deps);
    // The provider's answers come from the test, as a real provider's would come from its network.
    const real = sandbox();
    t.deps.payProviders.set('sandbox', {
      ...real,
      async query(orderId) {
        if (providerDown) throw new Error('provider unreachable');
        return providerStates.get(orderId) ?? { state: 'unpaid' };
      },
    });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    bob = await createUser(t.app, mailer, 'bob');
    const first = await charge(ann, '100');
    await pay(first);
    ids.annPaid = first.order_id;
    clock.set(new Date('2026-05-02T10:00:00Z'));
    ids.bobPending = (await charge(bob, '50')).order_id;
    clock.set(new Date('2026-05-03T10:00:00Z'));
    ids.annPending = (await charge(ann, '10')).order_id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('filters orders by customer e-mail or id, status, method, order id and day range, together', async () => {
    expect(idsOf(await orders(`user_email=${encodeURIComponent('ANN@example.com')}`))).toEqual([
      ids.annPending,
      ids.annPaid,
    ]);
    expect(idsOf(await orders(`user_email=ann%40example.com&user_id=${ann.userId}&status=success`))).toEqual([
      ids.annPaid,
    ]);
    // An e-mail that is not the id's customer, or no customer's, finds nothing.
    expect((await orders(`user_email=ann%40example.com&user_id=${bob.userId}`)).json().data.total).toBe(0);
    expect((await orders('user_email=nobody%40example.com')).json().data.total).toBe(0);
    expect(idsOf(await orders(`user_id=${bob.userId}&method=sandbox&status=pending`))).toEqual([ids.bobPending]);
    expect(idsOf(await orders('from=2026-05-02&to=2026-05-03'))).toEqual([ids.bobPending]);
    expect(idsOf(await orders(`order_id=${ids.annPaid}`))).toEqual([ids.annPaid]);
    expect((await orders('from=2026-05-04')).json().data.total).toBe(0);

    const bad = await orders('method=paypal', 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0]).toMatchObject({
      path: 'method',
      message: '支付方式须为 alipay、wechat、sandbox、usdt_trc20 或 usdt_erc20',
    });
    expect((await orders('from=yesterday')).json().data.issues[0].path).toBe('from');
    expect((await orders(`user_email=${'a'.repeat(255)}`)).json().data.issues[0].path).toBe('user_email');
  });

  it('reconciles a pending order the provider says is paid: credited once, through the settlement path', async () => {
    const before = await balanceFen(t.deps, bob.userId);
    const [order] = await t.db.db.select().from(payOrders).where(eq(payOrders.id, ids.bobPending));
    providerStates.set(order.id, { state: 'paid', providerTxId: 'SBX-RECON-1', paidFen: order.priceFen });

    const res = await reconcile(order.id);
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: {
        provider_state: 'paid',
        result: 'credited',
        order: { order_id: order.id, status: 'success', user_id: bob.userId, user_email: bob.email },
      },
    });
    expect(await balanceFen(t.deps, bob.userId)).toBe(before + order.valueFen);
    // Asked again: the order is no longer pending; the money moved once.
    const again = await reconcile(order.id, oper.token, 'zh');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      msg: '只有待支付的订单可以与支付渠道对账',
      data: { error: 'ORDER_NOT_RECONCILABLE' },
    });
    expect(await creditsOf(order.id)).toHaveLength(1);
    expect(await balanceFen(t.deps, bob.userId)).toBe(before + order.valueFen);

    const audit = await request(t.app, 'GET', `/admin/audit/list?route=adminPayReconcile&target_id=${order.id}`, {
      token: oper.token,
    });
    expect(
      audit.json().data.records.map((r: { result: string; target_id: string }) => [r.result, r.target_id]),
    ).toEqual([
      ['error', order.id],
      ['ok', order.id],
    ]);
  });

  it('leaves an unpaid order pending, ends one the provider closed as failed, and refuses an answer that does not match', async () => {
    const pending = await charge(ann, '20');
    const unchanged = await reconcile(pending.order_id);
    expect(unchanged.json().data).toMatchObject({
      provider_state: 'unpaid',
      result: 'unchanged',
      order: { status: 'pending' },
    });

    const before = await balanceFen(t.deps, ann.userId);
    providerStates.set(pending.order_id, { state: 'paid', providerTxId: 'SBX-RECON-2', paidFen: 1 });
    const mismatch = await reconcile(pending.order_id);
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().data.error).toBe('ORDER_RECONCILE_REFUSED');
    expect(mismatch.json().msg).toContain('paid 1 fen');
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);

    providerDown = true;
    const down = await reconcile(pending.order_id);
    expect(down.statusCode).toBe(502);
    expect(down.json().data.error).toBe('PAY_PROVIDER_FAILED');
    providerDown = false;

    providerStates.set(pending.order_id, { state: 'closed' });
    const closed = await reconcile(pending.order_id);
    expect(closed.json().data).toMatchObject({
      provider_state: 'closed',
      result: 'closed',
      order: { status: 'failure' },
    });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
  });

  it('refuses bad or unknown orders and customers', async () => {
    const tooLong = await reconcile('x'.repeat(65));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().data.issues[0].path).toBe('order_id');
    expect((await reconcile('NO-SUCH-ORDER')).statusCode).toBe(404);
    const customer = await reconcile(ids.annPending, ann.token);
    expect(customer.statusCode).toBe(403);
    const [order] = await t.db.db.select().from(payOrders).where(eq(payOrders.id, ids.annPending));
    expect(order.status).toBe('pending');
  });
});
