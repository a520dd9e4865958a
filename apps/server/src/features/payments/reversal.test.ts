import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { balances, users } from '@proxy/db';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  itOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { registerUser } from '../auth/auth-test-kit';
import { createRebatePayoutJob } from '../../jobs/token-jobs';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import { balanceFen, createAdmin, request, type TTestUser } from '../proxies/proxies-test-kit';
import { seedChargeOptions } from './payments-charge.service';
import { receiveNotification } from './payments-settle.service';
import type { createSandboxProvider } from './providers/sandbox';

// An operator reverses a paid recharge (refunded outside): the value comes back out of the balance, the rest
// becomes debt the next top-up pays first, total recharge drops, and the order's rebate is cancelled or taken back.
describe('reversing a recharge', () => {
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let oper: TTestUser;
  let inviter: { token: string; userId: number };
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, clock, config: { PAY_SANDBOX: 'true' } });
    await seedChargeOptions(t.deps);
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    const token = await registerUser(t.app, mailer, { email: 'ivy@example.com', username: 'ivy' });
    inviter = { token, userId: (await request(t.app, 'GET', '/user/info', { token })).json().data.user_id };
  });
  afterAll(async () => {
    await t?.close();
  });

  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  let counter = 0;
  /** A new customer invited by ivy. */
  async function invitee(): Promise<{ token: string; userId: number }> {
    counter += 1;
    const code = (await request(t.app, 'GET', '/invite/info', { token: inviter.token })).json().data.invite_code;
    const token = await registerUser(t.app, mailer, {
      email: `kid${counter}@example.com`,
      username: `kid${counter}`,
      invite_code: code,
    });
    return { token, userId: (await request(t.app, 'GET', '/user/info', { token })).json().data.user_id };
  }
  /** A paid sandbox top-up of `amount` yuan; answers the order id. */
  async function topUp(user: { token: string }, amount: string): Promise<string> {
    const order = (await request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token })).json().data;
    await receiveNotification(
      t.deps,
      'sandbox',
      sandbox().notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
      '127.0.0.1',
    );
    return order.order_id;
  }
  const reverse = (orderId: string, body: object = { reason: 'Refunded by bank transfer' }, lang = 'en') =>
    request(t.app, 'POST', `/admin/payments/orders/${orderId}/reverse`, { token: oper.token, body, lang });
  const debtOf = async (userId: number) =>
    (await t.db.db.select({ debt: balances.debtFen }).from(balances).where(eq(balances.userId, userId)))[0].debt;
  const totalOf = async (userId: number) =>
    (await t.db.db.select({ fen: users.totalRechargeFen }).from(users).where(eq(users.id, userId)))[0].fen;
  const expectLedgerBalanced = async (userId: number) => {
    const sums = await sumEntryDeltas(t.db.db, userId);
    const [row] = await t.db.db.select().from(balances).where(eq(balances.userId, userId));
    expect({ available: sums.availableFen, frozen: sums.frozenFen }).toEqual({
      available: row.availableFen,
      frozen: row.frozenFen,
    });
  };

  it('takes the whole value back when the balance covers it, lowers the total recharge and takes back the paid rebate', async () => {
    const kid = await invitee();
    const before = await balanceFen(t.deps, kid.userId);
    const orderId = await topUp(kid, '100');
    expect(await createRebatePayoutJob(t.deps).runOnce()).toBe(1);
    const inviterBefore = await balanceFen(t.deps, inviter.userId);
    expect(await totalOf(kid.userId)).toBe(10_000);

    const res = await reverse(orderId);
    expect(res.json().data, res.body).toMatchObject({
      taken_back: 100,
      debt: 0,
      rebate: 'taken_back',
      order: { order_id: orderId, reversed_at: expect.any(String), user_id: kid.userId },
    });
    expect(await balanceFen(t.deps, kid.userId)).toBe(before);
    expect(await totalOf(kid.userId)).toBe(0);
    expect(await balanceFen(t.deps, inviter.userId)).toBe(inviterBefore - 500);
    // The customer's bill says it was reversed; the statement shows the reversal.
    const bill = (await request(t.app, 'GET', `/pay/order/${orderId}`, { token: kid.token })).json().data;
    expect(bill.reversed_at).not.toBeNull();
    const lines = (await request(t.app, 'GET', '/pay/ledger/list?reason=reversal', { token: kid.token })).json().data
      .records;
    expect(lines).toEqual([expect.objectContaining({ reason: 'reversal', amount: -100, reference: orderId })]);
    await expectLedgerBalanced(kid.userId);

    // Once only.
    const again = await reverse(orderId);
    expect([again.statusCode, again.json().data.error]).toEqual([409, 'ORDER_NOT_REVERSIBLE']);
    expect(await balanceFen(t.deps, kid.userId)).toBe(before);
  });

  it('leaves what the balance cannot cover as debt, which the next top-up pays first; a pending rebate is cancelled', async () => {
    const kid = await invitee();
    const orderId = await topUp(kid, '100');
    // The rebate is not paid yet (the payout job has not run): it is cancelled.
    const available = await balanceFen(t.deps, kid.userId);
    const res = await reverse(orderId);
    expect(res.json().data).toMatchObject({ taken_back: 100, debt: 0, rebate: 'cancelled' });
    expect(await balanceFen(t.deps, kid.userId)).toBe(available - 10_000);
    expect(await debtOf(kid.userId)).toBe(0);
    // A second customer with less than the order's value left.
    const lee = await invitee();
    const leeOrder = await topUp(lee, '100');
    await request(t.app, 'POST', `/admin/users/${lee.userId}/balance`, {
      token: oper.token,
      body: { kind: 'debit', amount: '100', reason: 'Spent', request_id: 'spent-lee-0001' },
    });
    const leeAvailable = await balanceFen(t.deps, lee.userId);
    const partial = await reverse(leeOrder);
    expect(partial.json().data).toMatchObject({ taken_back: leeAvailable / 100, debt: (10_000 - leeAvailable) / 100 });
    expect(await balanceFen(t.deps, lee.userId)).toBe(0);
    expect(await debtOf(lee.userId)).toBe(10_000 - leeAvailable);

    // The next top-up pays the debt first.
    await topUp(lee, '100');
    expect(await debtOf(lee.userId)).toBe(0);
    expect(await balanceFen(t.deps, lee.userId)).toBe(10_000 - (10_000 - leeAvailable));
    await expectLedgerBalanced(lee.userId);
  });

  it('refuses an order that is not paid, an unknown order and a missing reason, moving nothing', async () => {
    const kid = await invitee();
    const pending = (await request(t.app, 'POST', '/pay/charge/sandbox/10', { token: kid.token })).json().data.order_id;
    expect((await reverse(pending)).statusCode).toBe(409);
    expect((await reverse('R-NOPE')).statusCode).toBe(404);
    const noReason = await reverse(pending, { reason: '  ' }, 'zh');
    expect([noReason.statusCode, noReason.json().data.issues[0].path]).toEqual([400, 'reason']);
    expect(
      (
        await request(t.app, 'POST', `/admin/payments/orders/${pending}/reverse`, {
          token: kid.token,
          body: { reason: 'x' },
        })
      ).statusCode,
    ).toBe(403);
  });

  itOnPostgres('two operators reversing one recharge at once reverse it once', async () => {
    const kid = await invitee();
    const before = await balanceFen(t.deps, kid.userId);
    const orderId = await topUp(kid, '50');
    const answers = await Promise.all(Array.from({ length: 6 }, () => reverse(orderId)));
    expect(answers.filter((a) => a.json().code === 0)).toHaveLength(1);
    expect(await balanceFen(t.deps, kid.userId)).toBe(before);
    await expectLedgerBalanced(kid.userId);
  });
});
