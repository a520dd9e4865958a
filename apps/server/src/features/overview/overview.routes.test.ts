import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenUsage } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { importInventory } from '../inventory/inventory.service';
import { seedChargeOptions } from '../payments/payments-charge.service';
import { receiveNotification } from '../payments/payments-settle.service';
import type { createSandboxProvider } from '../payments/providers/sandbox';
import { insertTransfer } from '../payments/usdt.repository';
import { buyOk, createAdmin, createUser, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';
import { overviewDays } from './overview.service';

describe('operators: the overview', () => {
  const clock = createFakeClock(new Date('2026-03-07T23:30:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  let bob: TTestUser;
  // Purchases in yuan by day (the answers of the real purchase calls).
  const spent: Record<string, number> = {};

  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  // A paid sandbox top-up of `amount` yuan, settled by the provider's notification.
  async function topUp(user: TTestUser, amount: string): Promise<void> {
    const order = (await request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token })).json().data;
    await receiveNotification(
      t.deps,
      'sandbox',
      sandbox().notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
      '127.0.0.1',
    );
  }
  const overview = (query = '', token = oper.token, lang = 'en') =>
    request(t.app, 'GET', `/admin/overview${query}`, { token, lang });

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { PAY_SANDBOX: 'true' } });
    await seedProxyStartup(t.deps);
    await seedChargeOptions(t.deps);
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    bob = await createUser(t.app, mailer, 'bob');
    expect((await importInventory(t.deps, '10.9.0.1:3128,jp,,\n10.9.0.2:3128,jp,,\n', 'residential')).imported).toBe(2);

    // 2026-03-07, outside a 3-day window: one recharge, some traffic.
    await topUp(ann, '100');
    // 2026-03-08: one recharge.
    clock.set(new Date('2026-03-08T10:00:00Z'));
    await topUp(ann, '100');
    // 2026-03-09: two recharges and a purchase.
    clock.set(new Date('2026-03-09T10:00:00Z'));
    await topUp(bob, '50');
    await topUp(ann, '10');
    const dynamic = await buyOk(t.app, ann.token, '/token/variable/traffic', {
      network: 'HTTP',
      country_id: 'us',
      quantity: 1,
      traffic_gb: 1,
    });
    spent['2026-03-09'] = dynamic.cost;
    // 2026-03-10: a static IP in jp (one upstream exit held), an order left unpaid.
    clock.set(new Date('2026-03-10T10:00:00Z'));
    const fixed = await buyOk(t.app, ann.token, '/token/static/ip', {
      network: 'HTTP',
      country_id: 'jp',
      quantity: 1,
      days: 1,
    });
    spent['2026-03-10'] = fixed.cost;
    expect((await request(t.app, 'POST', '/pay/charge/sandbox/10', { token: bob.token })).json().code).toBe(0);

    // Traffic of the dynamic proxy, by hour (the gateway's rows).
    const tokenId = dynamic.tokens[0].token_id;
    const usage: [string, number][] = [
      ['2026-03-07T23:00:00Z', 7],
      ['2026-03-09T00:00:00Z', 1000],
      ['2026-03-09T23:00:00Z', 500],
      ['2026-03-10T01:00:00Z', 2000],
    ];
    await t.db.db
      .insert(tokenUsage)
      .values(usage.map(([bucket, bytes]) => ({ tokenId, userId: ann.userId, bucket: new Date(bucket), bytes })));

    // Queues: two supply requests (one taken), two work orders (one answered), three USDT transfers (one credited).
    const supplyBody = {
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      amount: 1,
      region: 'us',
      wait_days: 7,
      contact_email: 'a@example.com',
      agree_terms: true,
    };
    const s1 = await request(t.app, 'POST', '/token/supply', { token: bob.token, body: supplyBody });
    expect(s1.json().code, s1.body).toBe(0);
    expect((await request(t.app, 'POST', '/token/supply', { token: ann.token, body: supplyBody })).json().code).toBe(0);
    expect(
      (await request(t.app, 'POST', `/admin/supply/take/${s1.json().data.request_id}`, { token: oper.token })).json()
        .code,
    ).toBe(0);
    const workOrder = { category: 'proxy', subject: 'Slow proxy', content: 'Every request times out.' };
    const w1 = await request(t.app, 'POST', '/user/work/order', { token: bob.token, body: workOrder });
    expect(w1.json().code, w1.body).toBe(0);
    expect((await request(t.app, 'POST', '/user/work/order', { token: ann.token, body: workOrder })).json().code).toBe(
      0,
    );
    const workOrderId = w1.json().data.id as number;
    const reply = await request(t.app, 'POST', `/admin/work-orders/reply/${workOrderId}`, {
      token: oper.token,
      body: { content: 'Fixed.' },
    });
    expect(reply.json().code, reply.body).toBe(0);
    const transfer = (i: number, status: 'credited' | 'unmatched') => ({
      network: 'trc20' as const,
      txHash: `tx${i}`,
      logIndex: 0,
      blockNumber: i,
      blockTime: clock.now(),
      fromAddress: 'TFrom',
      toAddress: 'TTo',
      amountUnits: '1000000',
      status,
    });
    for (const [i, status] of [
      [1, 'unmatched'],
      [2, 'unmatched'],
      [3, 'credited'],
    ] as const) {
      expect(await insertTransfer(t.db.db, transfer(i, status))).toBeDefined();
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers recharges, spend and traffic per UTC day over the window, every day present', async () => {
    const res = await overview('?days=3');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.days).toBe(3);
    expect(data.money).toEqual([
      { day: '2026-03-08', recharge_count: 1, recharge_amount: 100, spend_amount: 0 },
      { day: '2026-03-09', recharge_count: 2, recharge_amount: 60, spend_amount: spent['2026-03-09'] },
      { day: '2026-03-10', recharge_count: 0, recharge_amount: 0, spend_amount: spent['2026-03-10'] },
    ]);
    expect(spent['2026-03-09']).toBeGreaterThan(0);
    expect(spent['2026-03-10']).toBeGreaterThan(0);
    expect(data.traffic).toEqual([
      { day: '2026-03-08', bytes: 0 },
      { day: '2026-03-09', bytes: 1500 },
      { day: '2026-03-10', bytes: 2000 },
    ]);

    // The default window is 30 days and takes in the first recharge and its traffic.
    const month = (await overview()).json().data;
    expect(month.days).toBe(30);
    expect(month.money).toHaveLength(30);
    expect(month.money[0].day).toBe('2026-02-09');
    expect(month.money.at(-1).day).toBe('2026-03-10');
    expect(month.money.find((d: { day: string }) => d.day === '2026-03-07')).toMatchObject({
      recharge_count: 1,
      recharge_amount: 100,
    });
    expect(month.traffic.reduce((sum: number, d: { bytes: number }) => sum + d.bytes, 0)).toBe(3507);
  });

  it('answers live proxies by product, free stock by country and kind, and the queues', async () => {
    const data = (await overview('?days=1')).json().data;
    expect(data.active_proxies).toEqual([
      { category: 'isp', product: 'dynamic', billing: 'traffic', count: 1 },
      { category: 'isp', product: 'static', billing: 'ip', count: 1 },
    ]);
    const direct = t.deps.config.DIRECT_EXIT_COUNTRY;
    const expected = [
      { country: 'jp', kind: 'residential', total: 2, free: 1 },
      { country: direct, kind: 'datacenter', total: 1, free: 1 },
      { country: direct, kind: 'residential', total: 1, free: 1 },
    ].sort((a, b) => a.country.localeCompare(b.country) || a.kind.localeCompare(b.kind));
    expect(data.stock).toEqual(expected);
    expect({
      supply: data.pending_supply,
      workOrders: data.open_work_orders,
      unmatched: data.unmatched_payments,
    }).toEqual({
      supply: 1,
      workOrders: 1,
      unmatched: 2,
    });
  });

  it('refuses a bad window with the field and a message in the caller language, and refuses customers', async () => {
    for (const query of ['?days=0', '?days=91', '?days=abc', '?days=1.5']) {
      const res = await overview(query, oper.token, 'zh');
      expect(res.statusCode, query).toBe(400);
      expect(res.json().data.issues[0].path, query).toBe('days');
    }
    expect((await overview('?days=91')).json().data.issues[0].message).toBe('Days must be a whole number from 1 to 90');
    expect((await overview('?days=0', oper.token, 'zh')).json().data.issues[0].message).toBe('统计天数为 1-90 的整数');
    expect((await overview('?days=90')).json().data.money).toHaveLength(90);
    const customer = await overview('', ann.token);
    expect(customer.statusCode).toBe(403);
    expect(customer.json().data.error).toBe('FORBIDDEN');
    expect((await request(t.app, 'GET', '/admin/overview')).statusCode).toBe(401);
  });

  it('counts UTC days across a month end', () => {
    expect(overviewDays(new Date('2026-03-01T00:30:00+08:00'), 3)).toEqual(['2026-02-26', '2026-02-27', '2026-02-28']);
    expect(overviewDays(new Date('2026-03-01T23:59:59Z'), 2)).toEqual(['2026-02-28', '2026-03-01']);
  });
});
