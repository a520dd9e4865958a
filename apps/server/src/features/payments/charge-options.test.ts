import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeOptions, payMethodSettings, payOrders } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { createChargeOptionSet } from './charge-options.service';
import { seedChargeOptions } from './payments-charge.service';

const HOUR = 3_600_000;

describe('operators: recharge options and payment methods', () => {
  const clock = createFakeClock(new Date('2026-07-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let operator: TTestUser;
  let ann: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ mailer, clock, config: { PAY_SANDBOX: 'true' } });
    await seedChargeOptions(t.deps);
    operator = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
  });

  const asOperator = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, lang = 'en') =>
    request(t.app, method, url, { token: operator.token, body, lang });
  const optionRows = async () => (await t.db.db.select().from(chargeOptions)).length;
  const offered = async () => (await request(t.app, 'GET', '/pay/option/list', { token: ann.token })).json().data;
  const charge = (amount: string, lang = 'en') =>
    request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: ann.token, lang });

  it('shows the seeded set in effect, the methods with what is configured, and the fixed fee', async () => {
    const res = await asOperator('GET', '/admin/charge-options');
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data;
    expect(data.current).toMatchObject({ version: 1, status: 'current', created_by: null });
    expect(data.current.options.map((o: { amount_fen: number }) => o.amount_fen)).toEqual([
      1000, 5000, 10000, 20000, 50000, 100000,
    ]);
    expect(data.scheduled).toEqual([]);
    expect(data.methods).toContainEqual({ method: 'sandbox', is_configured: true, is_enabled: true, is_offered: true });
    expect(data.methods).toContainEqual({
      method: 'alipay',
      is_configured: false,
      is_enabled: true,
      is_offered: false,
    });
    expect(data.fee).toEqual({ percent: 1, fixed_fen: 100 });
  });

  it('a new set with gifts is what the top-up offers, and an order records its version and gift', async () => {
    const res = await asOperator('POST', '/admin/charge-options', {
      options: [
        { amount_fen: 20000, gift_fen: 2000 },
        { amount_fen: 10000, gift_fen: 500 },
      ],
    });
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({ version: 2, status: 'current', created_by: operator.email });
    expect((await offered()).record.map((o: { amount: number; gift: number }) => [o.amount, o.gift])).toEqual([
      [200, 20],
      [100, 5],
    ]);
    const order = await charge('100');
    expect(order.json().data).toMatchObject({ amount: 100, gift: 5, value: 105, fee: 2 });
    const [row] = await t.db.db.select().from(payOrders).where(eq(payOrders.id, order.json().data.order_id));
    expect(row.optionVersion).toBe(2);

    const audit = await asOperator('GET', '/admin/audit/list?route=adminChargeOptionCreate');
    expect(audit.json().data.records).toEqual([
      expect.objectContaining({ operator_id: operator.userId, result: 'ok' }),
    ]);
  });

  it('a set scheduled for later is not offered before its time and is after it', async () => {
    const at = new Date(clock.now().getTime() + HOUR);
    const res = await asOperator('POST', '/admin/charge-options', {
      options: [{ amount_fen: 10000, gift_fen: 1000 }],
      effective_at: at.toISOString(),
    });
    expect(res.json().data).toMatchObject({ version: 3, status: 'scheduled', effective_at: at.toISOString() });
    expect((await asOperator('GET', '/admin/charge-options')).json().data).toMatchObject({
      current: { version: 2 },
      scheduled: [{ version: 3 }],
    });
    expect((await charge('100')).json().data.gift).toBe(5);

    clock.advance(HOUR);
    expect((await offered()).record).toEqual([expect.objectContaining({ amount: 100, gift: 10 })]);
    const order = await charge('100');
    expect(order.json().data.gift).toBe(10);
    const [row] = await t.db.db.select().from(payOrders).where(eq(payOrders.id, order.json().data.order_id));
    expect(row.optionVersion).toBe(3);

    const versions = await asOperator('GET', '/admin/charge-options/versions');
    expect(versions.json().data.records.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual(
      [
        [3, 'current'],
        [2, 'past'],
        [1, 'past'],
      ],
    );
  });

  it('refuses a bad set with a message and writes nothing', async () => {
    const rows = await optionRows();
    const cases: [object, string, string][] = [
      [{ options: [] }, 'options', '充值选项须为 1 至 20 个'],
      [{ options: [{ amount_fen: 0, gift_fen: 0 }] }, 'options.0.amount_fen', '充值金额须为 1 至 100000000 分的整数'],
      [
        { options: [{ amount_fen: 1000.5, gift_fen: 0 }] },
        'options.0.amount_fen',
        '充值金额须为 1 至 100000000 分的整数',
      ],
      [{ options: [{ amount_fen: 1000, gift_fen: -1 }] }, 'options.0.gift_fen', '赠送金额须为 0 至 100000000 分的整数'],
      [
        {
          options: [
            { amount_fen: 1000, gift_fen: 0 },
            { amount_fen: 1000, gift_fen: 100 },
          ],
        },
        'options.1.amount_fen',
        '充值选项的金额不能重复',
      ],
      [{ options: [{ amount_fen: 50, gift_fen: 0 }] }, 'options.0.amount_fen', '充值金额须在 1 至 50000 元之间'],
      [
        {
          options: [{ amount_fen: 1000, gift_fen: 0 }],
          effective_at: new Date(clock.now().getTime() - HOUR).toISOString(),
        },
        'effective_at',
        '生效时间不能早于当前时间',
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await asOperator('POST', '/admin/charge-options', body, 'zh');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.issues).toContainEqual(
        expect.objectContaining({ path, message: expect.stringContaining(message) }),
      );
    }
    expect(await optionRows()).toBe(rows);
  });

  it('a method switched off is not offered and its orders are refused; switched on, it is offered again', async () => {
    const off = await asOperator('PUT', '/admin/charge-options/methods/sandbox', { is_enabled: false });
    expect(off.json().data).toEqual({ method: 'sandbox', is_configured: true, is_enabled: false, is_offered: false });
    expect((await offered()).methods).toEqual([]);
    const refusedZh = await charge('100', 'zh');
    expect(refusedZh.statusCode).toBe(409);
    expect(refusedZh.json()).toMatchObject({
      msg: '该支付方式已暂停使用，请选择其他支付方式',
      data: { error: 'PAY_METHOD_DISABLED' },
    });
    expect((await charge('100', 'en')).json().msg).toBe(
      'This payment method is switched off for now; please choose another method',
    );

    const on = await asOperator('PUT', '/admin/charge-options/methods/sandbox', { is_enabled: true });
    expect(on.json().data.is_offered).toBe(true);
    expect((await offered()).methods.map((m: { method: string }) => m.method)).toEqual(['sandbox']);
    expect((await charge('100')).json().code).toBe(0);

    const audit = await asOperator('GET', '/admin/audit/list?route=adminPayMethodSet');
    expect(audit.json().data.records).toHaveLength(2);
  });

  it('a method without provider settings cannot be switched on; an unknown method or a non-boolean is refused', async () => {
    const res = await asOperator('PUT', '/admin/charge-options/methods/alipay', { is_enabled: true }, 'zh');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      data: { error: 'PAY_METHOD_NOT_CONFIGURED' },
      msg: expect.stringContaining('未在服务器上配置'),
    });
    const en = await asOperator('PUT', '/admin/charge-options/methods/alipay', { is_enabled: true });
    expect(en.json().msg).toContain('not configured on the server');
    expect((await asOperator('PUT', '/admin/charge-options/methods/paypal', { is_enabled: false })).statusCode).toBe(
      400,
    );
    expect((await asOperator('PUT', '/admin/charge-options/methods/sandbox', { is_enabled: 'no' })).statusCode).toBe(
      400,
    );
    expect(await t.db.db.select().from(payMethodSettings).where(eq(payMethodSettings.method, 'alipay'))).toEqual([]);
  });

  it('refuses customers every operator call on options and methods', async () => {
    for (const [method, url, body] of [
      ['GET', '/admin/charge-options', undefined],
      ['GET', '/admin/charge-options/versions', undefined],
      ['POST', '/admin/charge-options', { options: [{ amount_fen: 1000, gift_fen: 0 }] }],
      ['PUT', '/admin/charge-options/methods/sandbox', { is_enabled: false }],
    ] as const) {
      expect((await request(t.app, method, url, { token: ann.token, body })).statusCode, url).toBe(403);
    }
    expect((await offered()).methods).toHaveLength(1);
  });

  it('two sets saved at once become two versions, each holding only its own options', async () => {
    const [a, b] = await Promise.all([
      createChargeOptionSet(t.deps, operator.userId, { options: [{ amount_fen: 3000, gift_fen: 0 }] }),
      createChargeOptionSet(t.deps, operator.userId, {
        options: [
          { amount_fen: 4000, gift_fen: 0 },
          { amount_fen: 6000, gift_fen: 100 },
        ],
      }),
    ]);
    expect(a.version).not.toBe(b.version);
    expect(a.options).toEqual([{ amount_fen: 3000, gift_fen: 0 }]);
    expect(b.options).toEqual([
      { amount_fen: 4000, gift_fen: 0 },
      { amount_fen: 6000, gift_fen: 100 },
    ]);
  });
});
