import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries } from '@proxy/db';
import { createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { balanceFen, createAdmin, createUser, creditFen, request, type TTestUser } from '../proxies/proxies-test-kit';

describe('operators: accounts, balances and roles', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let operator: TTestUser;
  let dana: TTestUser;
  let eric: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    operator = await createAdmin(t.app, t.deps, mailer, 'oper');
    dana = await createUser(t.app, mailer, 'dana');
    eric = await createUser(t.app, mailer, 'eric');
  });
  afterAll(async () => {
    await t?.close();
  });

  const asOperator = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, lang = 'en') =>
    request(t.app, method, url, { token: operator.token, body, lang });
  const adjust = (userId: number, body: object, lang = 'en') =>
    asOperator('POST', `/admin/users/${userId}/balance`, body, lang);
  const entriesOf = (userId: number) =>
    t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.reason, 'adjustment')));

  it('finds accounts by e-mail, username, id or invite code, and by status', async () => {
    const byEmail = await asOperator(
      'GET',
      `/admin/users/list?keyword=${encodeURIComponent(dana.email.toUpperCase())}`,
    );
    expect(byEmail.json().data.records.map((r: { user_id: number }) => r.user_id)).toEqual([dana.userId]);
    expect(byEmail.json().data.records[0]).toMatchObject({
      email: dana.email,
      status: 'active',
      is_admin: false,
      balance: expect.any(Number),
    });

    const byId = await asOperator('GET', `/admin/users/list?keyword=${eric.userId}`);
    expect(byId.json().data.records.map((r: { user_id: number }) => r.user_id)).toContain(eric.userId);

    const info = await request(t.app, 'GET', '/user/info', { token: eric.token });
    const byCode = await asOperator('GET', `/admin/users/list?keyword=${info.json().data.invite_code}`);
    expect(byCode.json().data.records.map((r: { user_id: number }) => r.user_id)).toEqual([eric.userId]);

    // LIKE's wildcards are plain characters in a keyword.
    expect((await asOperator('GET', '/admin/users/list?keyword=%25')).json().data.total).toBe(0);
    const all = await asOperator('GET', '/admin/users/list?page_size=200');
    expect(all.json().data.total).toBe(3);
    expect((await asOperator('GET', '/admin/users/list?status=disabled')).json().data.total).toBe(0);

    const bad = await asOperator('GET', '/admin/users/list?status=gone', undefined, 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0].path).toBe('status');
  });

  it('credits and debits with a reason through the ledger, once per request id, and the statement shows it', async () => {
    const before = await balanceFen(t.deps, dana.userId);
    const credit = await adjust(dana.userId, {
      kind: 'credit',
      amount: '10',
      reason: 'Compensation for an outage',
      request_id: 'adj-credit-0001',
    });
    expect(credit.json(), credit.body).toMatchObject({
      code: 0,
      data: { balance: (before + 1000) / 100, is_replay: false },
    });
    // A retry of the same request moves nothing.
    const again = await adjust(dana.userId, {
      kind: 'credit',
      amount: '10',
      reason: 'Compensation for an outage',
      request_id: 'adj-credit-0001',
    });
    expect(again.json().data).toMatchObject({ entry_id: credit.json().data.entry_id, is_replay: true });
    expect(await balanceFen(t.deps, dana.userId)).toBe(before + 1000);
    // The same id for another amount is a conflict, not a second movement.
    const conflict = await adjust(dana.userId, {
      kind: 'credit',
      amount: '11',
      reason: 'x',
      request_id: 'adj-credit-0001',
    });
    expect(conflict.statusCode).toBe(409);

    const debit = await adjust(dana.userId, {
      kind: 'debit',
      amount: '2.50',
      reason: 'Chargeback',
      request_id: 'adj-debit-0001',
    });
    expect(debit.json().data.balance).toBe((before + 750) / 100);

    // More than the available balance: refused, nothing moves.
    const tooMuch = await adjust(dana.userId, {
      kind: 'debit',
      amount: '100000',
      reason: 'x',
      request_id: 'adj-debit-0002',
    });
    expect(tooMuch.statusCode).toBe(402);
    expect(tooMuch.json().data.error).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceFen(t.deps, dana.userId)).toBe(before + 750);
    expect(await entriesOf(dana.userId)).toHaveLength(2);

    const statement = await asOperator('GET', `/admin/users/${dana.userId}/ledger?reason=adjustment`);
    expect(statement.json().data.records).toEqual([
      expect.objectContaining({ reason: 'adjustment', amount: -2.5, reference: 'Chargeback' }),
      expect.objectContaining({ reason: 'adjustment', amount: 10, reference: 'Compensation for an outage' }),
    ]);
    // The customer sees the same lines in their own statement.
    const own = await request(t.app, 'GET', '/pay/ledger/list?reason=adjustment', { token: dana.token });
    expect(own.json().data.total).toBe(2);

    // Every adjustment left an audit entry.
    const audit = await asOperator('GET', `/admin/audit/list?route=adminUserAdjust&target_id=${dana.userId}`);
    expect(
      audit
        .json()
        .data.records.map((r: { result: string }) => r.result)
        .sort(),
    ).toEqual(['error', 'error', 'ok', 'ok', 'ok']);
  });

  it('refuses a bad adjustment with the field and a message in the caller language, moving nothing', async () => {
    const before = await balanceFen(t.deps, eric.userId);
    const cases: [object, string, string][] = [
      [
        { kind: 'credit', amount: '0', reason: 'x', request_id: 'adj-bad-0001' },
        'amount',
        '调整金额须大于 0 且不超过 1000000 元',
      ],
      [
        { kind: 'credit', amount: '1.234', reason: 'x', request_id: 'adj-bad-0002' },
        'amount',
        '调整金额须为最多两位小数的数字，如 10 或 10.50',
      ],
      [
        { kind: 'credit', amount: '1000000.01', reason: 'x', request_id: 'adj-bad-0003' },
        'amount',
        '调整金额须大于 0 且不超过 1000000 元',
      ],
      [{ kind: 'credit', amount: '1', reason: '   ', request_id: 'adj-bad-0004' }, 'reason', ''],
      [{ kind: 'gift', amount: '1', reason: 'x', request_id: 'adj-bad-0005' }, 'kind', ''],
      [{ kind: 'credit', amount: '1', reason: 'x', request_id: 'no' }, 'request_id', ''],
      [{ kind: 'credit', amount: 1, reason: 'x', request_id: 'adj-bad-0006' }, 'amount', ''],
    ];
    for (const [body, field, zh] of cases) {
      const res = await adjust(eric.userId, body, 'zh');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.issues[0].path, JSON.stringify(body)).toBe(field);
      if (zh) expect(res.json().data.issues[0].message).toBe(zh);
    }
    const en = await adjust(
      eric.userId,
      { kind: 'credit', amount: '0', reason: 'x', request_id: 'adj-bad-0007' },
      'en',
    );
    expect(en.json().data.issues[0].message).toBe('The adjustment must be more than 0 and at most 1000000 yuan');
    expect(await balanceFen(t.deps, eric.userId)).toBe(before);
    expect(
      (await adjust(999_999, { kind: 'credit', amount: '1', reason: 'x', request_id: 'adj-bad-0008' })).statusCode,
    ).toBe(404);
  });

  it("shows one account's page with its counts, and 404 for an unknown id", async () => {
    const page = await asOperator('GET', `/admin/users/${eric.userId}`);
    expect(page.json().data).toMatchObject({
      user_id: eric.userId,
      email: eric.email,
      live_proxies: 0,
      recharge_orders: 0,
      invitees: 0,
      inviter_email: null,
    });
    expect(page.json().data.sessions).toBeGreaterThanOrEqual(1);
    expect((await asOperator('GET', '/admin/users/999999')).statusCode).toBe(404);
    expect((await asOperator('GET', '/admin/users/999999/ledger')).statusCode).toBe(404);
    expect((await asOperator('GET', '/admin/users/999999/orders')).statusCode).toBe(404);
    const orders = await asOperator('GET', `/admin/users/${eric.userId}/orders`);
    expect(orders.json().data).toMatchObject({ records: [], total: 0 });
  });

  it('grants and revokes the operator role (never its own), and the area follows at once', async () => {
    expect((await request(t.app, 'GET', '/admin/audit/list', { token: eric.token })).statusCode).toBe(403);
    const grant = await asOperator('PUT', `/admin/users/${eric.userId}/admin`, { is_admin: true });
    expect(grant.json().data).toEqual({ user_id: eric.userId, is_admin: true });
    expect((await request(t.app, 'GET', '/admin/audit/list', { token: eric.token })).statusCode).toBe(200);
    await asOperator('PUT', `/admin/users/${eric.userId}/admin`, { is_admin: false });
    expect((await request(t.app, 'GET', '/admin/audit/list', { token: eric.token })).statusCode).toBe(403);
    const self = await asOperator('PUT', `/admin/users/${operator.userId}/admin`, { is_admin: false });
    expect(self.statusCode).toBe(409);
    expect(self.json().data.error).toBe('SELF_ACTION_REFUSED');
    expect((await asOperator('PUT', `/admin/users/${eric.userId}/admin`, { is_admin: 'yes' })).statusCode).toBe(400);
  });

  itOnPostgres(
    'concurrent retries of one adjustment move the money once; concurrent debits never overdraw',
    async () => {
      const frank = await createUser(t.app, mailer, 'frank');
      await creditFen(t.deps, frank.userId, 1000);
      const start = await balanceFen(t.deps, frank.userId);
      const body = { kind: 'credit', amount: '5', reason: 'Retry storm', request_id: 'adj-storm-0001' };
      const answers = await Promise.all(Array.from({ length: 8 }, () => adjust(frank.userId, body)));
      expect(answers.every((a) => a.json().code === 0)).toBe(true);
      expect(answers.filter((a) => !a.json().data.is_replay)).toHaveLength(1);
      expect(await balanceFen(t.deps, frank.userId)).toBe(start + 500);

      const total = start + 500;
      const debits = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          adjust(frank.userId, {
            kind: 'debit',
            amount: String(total / 100 / 4),
            reason: 'Split',
            request_id: `adj-split-000${i}`,
          }),
        ),
      );
      expect(debits.filter((d) => d.json().code === 0)).toHaveLength(4);
      expect(await balanceFen(t.deps, frank.userId)).toBe(0);
    },
  );
});
