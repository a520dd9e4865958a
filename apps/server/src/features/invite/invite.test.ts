import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, openDb, payOrders, rebates, users } from '@proxy/db';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  itOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { registerUser } from '../auth/auth-test-kit';
import { balanceFen, createAdmin, request, type TTestUser } from '../proxies/proxies-test-kit';
import { createLedgerService } from '../ledger/ledger.service';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import { seedChargeOptions } from '../payments/payments-charge.service';
import { receiveNotification } from '../payments/payments-settle.service';
import type { createSandboxProvider } from '../payments/providers/sandbox';
import { updateUserStatus } from '../users/users.repository';
import { createRebatePayoutJob } from '../../jobs/token-jobs';
import { mailboxOf, maskEmail, payNextRebate, rebatePaymentKey, reverseRebateOfOrder } from './invite.service';

// Invite and rebate on the real settlement path: sandbox notifications settle recharges, the payout job pays rebates through the ledger.
describe('invite and rebate', () => {
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let ann: TTestUser & { code: string };
  let ben: TTestUser;
  let oper: TTestUser;
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));

  const sandbox = () => t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
  const payout = () => createRebatePayoutJob(t.deps).runOnce();
  const rebateOf = async (orderId: string) =>
    (await t.db.db.select().from(rebates).where(eq(rebates.orderId, orderId)))[0];

  /** A new account registered with an invite code; its token, id and e-mail. */
  async function invitee(name: string, code: string, email = `${name}@example.com`): Promise<TTestUser> {
    const token = await registerUser(t.app, mailer, { email, username: name, invite_code: code });
    const info = (await request(t.app, 'GET', '/user/info', { token })).json().data;
    return { token, userId: info.user_id, email };
  }

  /** Starts a sandbox order of `amount` yuan for the user; its id and the notification that pays it. */
  async function order(user: TTestUser, amount: string) {
    const res = await request(t.app, 'POST', `/pay/charge/sandbox/${amount}`, { token: user.token });
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data as { order_id: string; price: number };
    const incoming = sandbox().notificationFor(
      { id: data.order_id, priceFen: Math.round(data.price * 100) },
      'success',
    );
    return {
      id: data.order_id,
      notify: (deps = t.deps) => receiveNotification(deps, 'sandbox', incoming, '127.0.0.1'),
    };
  }

  /** Tops up and settles; answers the order id. */
  async function topUp(user: TTestUser, amount: string): Promise<string> {
    const o = await order(user, amount);
    await o.notify();
    return o.id;
  }
  let lastBenOrder: Awaited<ReturnType<typeof order>>;

  beforeAll(async () => {
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, clock, config: { PAY_SANDBOX: 'true', PAY_MAX_AMOUNT: '100000' } });
    await seedChargeOptions(t.deps);
    const annToken = await registerUser(t.app, mailer, { email: 'ann@example.com', username: 'ann' });
    const annInfo = (await request(t.app, 'GET', '/user/info', { token: annToken })).json().data;
    ann = { token: annToken, userId: annInfo.user_id, email: 'ann@example.com', code: annInfo.invite_code };
    ben = await invitee('ben', ann.code);
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shares a valid code with the inviter display name and the claims, never the e-mail; any case of the code', async () => {
    for (const code of [ann.code, ann.code.toLowerCase()]) {
      const res = await request(t.app, 'GET', `/invite/share/${code}`);
      expect(res.json().code, res.body).toBe(0);
      expect(res.json().data).toEqual({
        invite_code: ann.code,
        is_valid: true,
        inviter_name: 'ann',
        message: null,
        invite_required: false,
        claims: { residential_ips: '32M+', countries: 195, uptime: '99.9%' },
      });
      expect(res.body).not.toContain('ann@example.com');
    }
  });

  it('says an unknown, malformed or disabled code does not exist or has expired, in the caller language', async () => {
    const en = (await request(t.app, 'GET', '/invite/share/NOSUCHCODE', { lang: 'en' })).json().data;
    expect(en).toMatchObject({
      is_valid: false,
      inviter_name: null,
      message: 'Invalid invitation code: it does not exist or has expired',
    });
    const zh = (await request(t.app, 'GET', '/invite/share/bad-code!', { lang: 'zh' })).json().data;
    expect(zh).toMatchObject({ is_valid: false, message: '邀请码不存在或已失效' });
    const eve = await invitee('eve', ann.code);
    const eveCode = (await request(t.app, 'GET', '/invite/info', { token: eve.token })).json().data.invite_code;
    await updateUserStatus(t.deps.db, eve.userId, 'disabled');
    expect((await request(t.app, 'GET', `/invite/share/${eveCode}`)).json().data).toMatchObject({
      is_valid: false,
      inviter_name: null,
    });
    // Nor does registration take it.
    await expect(
      registerUser(t.app, mailer, { email: 'fay@example.com', username: 'fay', invite_code: eveCode }),
    ).rejects.toThrow('INVITE_CODE_INVALID');
  });

  it('shows my code, my link, who invited me, my invitees and the rate in force', async () => {
    const annInfo = (await request(t.app, 'GET', '/invite/info', { token: ann.token })).json().data;
    expect(annInfo).toMatchObject({
      invite_code: ann.code,
      invite_link: `${t.deps.config.publicUrl}/invite/${ann.code}`,
      inviter_name: null,
      invited_count: 2,
      total_rebate: 0,
      pending_rebate: 0,
      rebate_rate: 5,
    });
    expect((await request(t.app, 'GET', '/invite/info', { token: ben.token })).json().data).toMatchObject({
      inviter_name: 'ann',
      invited_count: 0,
    });
    const records = (await request(t.app, 'GET', '/invite/records', { token: ann.token })).json().data;
    expect(records.total).toBe(2);
    expect(records.records.map((r: { invitee: string }) => r.invitee)).toEqual([
      'ev***@example.com',
      'be***@example.com',
    ]);
    expect(records.records[1]).toMatchObject({ rebate_count: 0, total_rebate: 0 });
    const config = (await request(t.app, 'GET', '/invite/rebate/config', { token: ben.token })).json().data;
    expect(config).toMatchObject({ version: 1, rate: 5, min_charge: 10, max_rebate: 100 });
  });

  it("the trial credit earns no rebate; an invitee's 100 yuan top-up earns 5 yuan, pending, then paid once by the job", async () => {
    expect((await request(t.app, 'GET', '/invite/rebate/records', { token: ann.token })).json().data.total).toBe(0);
    const before = await balanceFen(t.deps, ann.userId);
    lastBenOrder = await order(ben, '100');
    await lastBenOrder.notify();
    const orderId = lastBenOrder.id;
    const pending = (await request(t.app, 'GET', '/invite/rebate/records', { token: ann.token })).json().data;
    expect(pending.records).toEqual([
      expect.objectContaining({
        invitee: 'be***@example.com',
        charge_amount: 100,
        rebate_amount: 5,
        status: 'pending',
        processed_time: null,
      }),
    ]);
    expect((await request(t.app, 'GET', '/invite/info', { token: ann.token })).json().data).toMatchObject({
      pending_rebate: 5,
      total_rebate: 0,
    });
    expect(await payout()).toBe(1);
    expect(await payout()).toBe(0);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 500);
    const paid = (await request(t.app, 'GET', '/invite/rebate/records?status=success', { token: ann.token })).json()
      .data;
    expect(paid.records[0]).toMatchObject({ status: 'success', rebate_amount: 5 });
    expect(paid.records[0].processed_time).not.toBeNull();
    const [entry] = await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, ann.userId), eq(ledgerEntries.idempotencyKey, rebatePaymentKey(orderId))));
    expect(entry).toMatchObject({ reason: 'rebate', availableDelta: 500, reference: orderId });
    expect((await sumEntryDeltas(t.db.db, ann.userId)).availableFen).toBe(await balanceFen(t.deps, ann.userId));
    const records = (await request(t.app, 'GET', '/invite/records', { token: ann.token })).json().data.records;
    expect(records[1]).toMatchObject({ invitee: 'be***@example.com', rebate_count: 1, total_rebate: 5 });
    expect((await request(t.app, 'GET', '/invite/info', { token: ann.token })).json().data).toMatchObject({
      pending_rebate: 0,
      total_rebate: 5,
    });
    const notes = (await request(t.app, 'GET', '/user/notification/list', { token: ann.token })).json();
    expect(JSON.stringify(notes)).toContain('Invite rebate received');
    // The notification replayed settles nothing and creates no second rebate.
    await lastBenOrder.notify();
    expect(await payout()).toBe(0);
    expect(await t.db.db.select().from(rebates).where(eq(rebates.orderId, orderId))).toHaveLength(1);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 500);
  });

  it('earns nothing below the minimum charge, 0.50 at exactly 10 yuan, and at most 100 yuan per recharge', async () => {
    const below = await topUp(ben, '9.99');
    expect(await rebateOf(below)).toBeUndefined();
    const atMin = await topUp(ben, '10');
    expect(await rebateOf(atMin)).toMatchObject({ rebateFen: 50, chargeFen: 1000, ruleVersion: 1 });
    const capped = await topUp(ben, '5000');
    expect(await rebateOf(capped)).toMatchObject({ rebateFen: 10_000 });
    const floored = await topUp(ben, '33.33');
    expect(await rebateOf(floored)).toMatchObject({ rebateFen: 166 });
    expect(await payout()).toBe(3);
  });

  it('pays no rebate on a rebate: the inviter of an inviter earns only from top-ups', async () => {
    const cat = await invitee(
      'cat',
      (await request(t.app, 'GET', '/invite/info', { token: ben.token })).json().data.invite_code,
    );
    const annRebates = async () =>
      (await t.db.db.select().from(rebates).where(eq(rebates.inviterId, ann.userId))).length;
    const annCount = await annRebates();
    const orderId = await topUp(cat, '200');
    expect(await rebateOf(orderId)).toMatchObject({ inviterId: ben.userId, rebateFen: 1000 });
    expect(await payout()).toBe(1);
    // Ben's rebate is a credit of his balance, not a recharge: Ann (who invited Ben) gets nothing from it.
    expect(await annRebates()).toBe(annCount);
    const benInfo = (await request(t.app, 'GET', '/user/info', { token: ben.token })).json().data;
    expect(benInfo.total_balance).toBe(100 + 9.99 + 10 + 5000 + 33.33);
  });

  it('never rebates inviting oneself: the same account, or the inviter mailbox spelled another way', async () => {
    expect(mailboxOf('D.an+promo@GoogleMail.com')).toBe('dan@gmail.com');
    expect(mailboxOf('dan+x@example.com')).toBe('dan@example.com');
    expect(mailboxOf('d.an@example.com')).toBe('d.an@example.com');
    const danToken = await registerUser(t.app, mailer, { email: 'dan@gmail.com', username: 'dan' });
    const danCode = (await request(t.app, 'GET', '/invite/info', { token: danToken })).json().data.invite_code;
    const alias = await invitee('danalias', danCode, 'd.an+promo@gmail.com');
    expect(await rebateOf(await topUp(alias, '100'))).toBeUndefined();
    const danId = (await request(t.app, 'GET', '/user/info', { token: danToken })).json().data.user_id;
    await t.deps.db.update(users).set({ invitedBy: danId }).where(eq(users.id, danId));
    expect(
      await rebateOf(await topUp({ token: danToken, userId: danId, email: 'dan@gmail.com' }, '100')),
    ).toBeUndefined();
  });

  it('prices each rebate with the rules in force when its recharge succeeds, and records the version', async () => {
    const res = await request(t.app, 'POST', '/invite/admin/rebate/config', {
      token: oper.token,
      body: { rate: 7.5, min_charge: 20, max_rebate: 50.5 },
    });
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({
      version: 2,
      rate: 7.5,
      min_charge: 20,
      max_rebate: 50.5,
      created_by: 'oper@example.com',
      is_current: true,
    });
    expect((await request(t.app, 'GET', '/invite/rebate/config', { token: ann.token })).json().data).toMatchObject({
      version: 2,
      rate: 7.5,
    });
    expect(await rebateOf(await topUp(ben, '19.99'))).toBeUndefined();
    expect(await rebateOf(await topUp(ben, '100'))).toMatchObject({ rebateFen: 750, ruleVersion: 2 });
    expect(await rebateOf(await topUp(ben, '1000'))).toMatchObject({ rebateFen: 5050, ruleVersion: 2 });
    const list = (await request(t.app, 'GET', '/invite/admin/rebate/config/list', { token: oper.token })).json().data;
    expect(list.records.map((v: { version: number; is_current: boolean }) => [v.version, v.is_current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(list.records[1]).toMatchObject({ rate: 5, min_charge: 10, max_rebate: 100, created_by: null });
    const all = (await request(t.app, 'GET', '/admin/invite/rebates?status=pending', { token: oper.token })).json()
      .data;
    expect(all.records.map((r: { rule_version: number }) => r.rule_version)).toEqual([2, 2]);
    expect(all.records[0]).toMatchObject({
      inviter_email: 'ann@example.com',
      invitee_email: 'ben@example.com',
      shortfall_amount: 0,
    });
    expect(await payout()).toBe(2);
    await request(t.app, 'POST', '/invite/admin/rebate/config', {
      token: oper.token,
      body: { rate: 5, min_charge: 10, max_rebate: 100 },
    });
  });

  it('refuses rules out of bounds or with more than two decimals, in the caller language, and keeps the rules', async () => {
    const post = (body: object, lang = 'en') =>
      request(t.app, 'POST', '/invite/admin/rebate/config', { token: oper.token, body, lang });
    const cases: [object, string, string][] = [
      [{ rate: 50.01, min_charge: 10, max_rebate: 100 }, 'rate', 'The rebate rate must be between 0 % and 50 %'],
      [{ rate: -1, min_charge: 10, max_rebate: 100 }, 'rate', 'The rebate rate must be between 0 % and 50 %'],
      [{ rate: 1.234, min_charge: 10, max_rebate: 100 }, 'rate', 'At most two decimals'],
      [{ rate: 5, min_charge: 10.001, max_rebate: 100 }, 'min_charge', 'At most two decimals'],
      [
        { rate: 5, min_charge: 10, max_rebate: 0 },
        'max_rebate',
        'The minimum charge must be 0-1000000 yuan and the maximum rebate 0.01-1000000 yuan',
      ],
      [{ rate: '5', min_charge: 10, max_rebate: 100 }, 'rate', ''],
    ];
    const version = (await request(t.app, 'GET', '/invite/rebate/config', { token: ann.token })).json().data.version;
    for (const [body, path, message] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.issues[0].path).toBe(path);
      if (message) expect(res.json().data.issues[0].message).toBe(message);
    }
    expect((await post({ rate: 60, min_charge: 10, max_rebate: 100 }, 'zh')).json().data.issues[0].message).toBe(
      '返利比例须在 0% 至 50% 之间',
    );
    expect(
      (
        await request(t.app, 'POST', '/invite/admin/rebate/config', {
          token: ben.token,
          body: { rate: 5, min_charge: 10, max_rebate: 100 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await request(t.app, 'GET', '/invite/rebate/config', { token: ann.token })).json().data.version).toBe(
      version,
    );
    expect((await request(t.app, 'GET', '/invite/rebate/records?status=paid', { token: ann.token })).statusCode).toBe(
      400,
    );
  });

  it('fails a rebate whose inviter is disabled, and marks unknown one whose recharge is not a success', async () => {
    const gus = await registerUser(t.app, mailer, { email: 'gus@example.com', username: 'gus' });
    const gusInfo = (await request(t.app, 'GET', '/user/info', { token: gus })).json().data;
    const hal = await invitee('hal', gusInfo.invite_code);
    const first = await topUp(hal, '100');
    await updateUserStatus(t.deps.db, gusInfo.user_id, 'disabled');
    const second = await topUp(hal, '100');
    await t.deps.db.update(payOrders).set({ status: 'failure' }).where(eq(payOrders.id, second));
    expect(await payout()).toBe(2);
    expect(await rebateOf(first)).toMatchObject({ status: 'failed', reason: 'inviter_disabled' });
    expect((await rebateOf(second))!.status).toBe('unknown');
    // Only the 15 yuan trial credit.
    expect(await balanceFen(t.deps, gusInfo.user_id)).toBe(1500);
  });

  it('holds a rebate REBATE_HOLD_HOURS before paying it', async () => {
    const config = t.deps.config as { REBATE_HOLD_HOURS: number };
    config.REBATE_HOLD_HOURS = 24;
    try {
      const orderId = await topUp(ben, '100');
      expect(await payout()).toBe(0);
      clock.advance(24 * 3_600_000 - 1000);
      expect(await payout()).toBe(0);
      clock.advance(1000);
      expect(await payout()).toBe(1);
      expect((await rebateOf(orderId))!.status).toBe('success');
    } finally {
      config.REBATE_HOLD_HOURS = 0;
    }
  });

  describe('reversing a recharge (for the operator console)', () => {
    it('cancels a pending rebate, once', async () => {
      const orderId = await topUp(ben, '100');
      expect(await reverseRebateOfOrder(t.deps, orderId)).toMatchObject({ outcome: 'cancelled' });
      expect(await rebateOf(orderId)).toMatchObject({ status: 'failed', reason: 'recharge_reversed', reversedFen: 0 });
      expect(await reverseRebateOfOrder(t.deps, orderId)).toEqual({ outcome: 'none' });
      expect(await payout()).toBe(0);
    });

    it('takes a paid rebate back in full when the balance allows, once', async () => {
      const orderId = await topUp(ben, '100');
      await payout();
      const before = await balanceFen(t.deps, ann.userId);
      expect(await reverseRebateOfOrder(t.deps, orderId)).toMatchObject({
        outcome: 'taken_back',
        reversedFen: 500,
        shortfallFen: 0,
      });
      expect(await reverseRebateOfOrder(t.deps, orderId)).toEqual({ outcome: 'none' });
      expect(await balanceFen(t.deps, ann.userId)).toBe(before - 500);
      expect(await rebateOf(orderId)).toMatchObject({
        status: 'failed',
        reason: 'recharge_reversed',
        reversedFen: 500,
        shortfallFen: 0,
      });
    });

    it('takes back what the available balance allows and records the rest for the operator', async () => {
      const ivy = await registerUser(t.app, mailer, { email: 'ivy@example.com', username: 'ivy' });
      const ivyInfo = (await request(t.app, 'GET', '/user/info', { token: ivy })).json().data;
      const jon = await invitee('jon', ivyInfo.invite_code);
      const orderId = await topUp(jon, '1000');
      await payout();
      // The 15 yuan trial credit and the 50 yuan rebate; 62 of them spent.
      expect(await balanceFen(t.deps, ivyInfo.user_id)).toBe(6500);
      await createLedgerService(t.deps).debit({ userId: ivyInfo.user_id, amountFen: 6200, reason: 'purchase' });
      expect(await reverseRebateOfOrder(t.deps, orderId)).toMatchObject({
        outcome: 'taken_back',
        reversedFen: 300,
        shortfallFen: 4700,
      });
      expect(await balanceFen(t.deps, ivyInfo.user_id)).toBe(0);
      const all = (await request(t.app, 'GET', '/admin/invite/rebates?status=failed', { token: oper.token })).json()
        .data;
      expect(all.records.find((r: { order_id: string }) => r.order_id === orderId)).toMatchObject({
        reversed_amount: 3,
        shortfall_amount: 47,
      });
      // With nothing available, nothing moves and the whole rebate is the shortfall.
      const second = await topUp(jon, '100');
      await payout();
      await createLedgerService(t.deps).debit({ userId: ivyInfo.user_id, amountFen: 500, reason: 'purchase' });
      expect(await reverseRebateOfOrder(t.deps, second)).toMatchObject({ reversedFen: 0, shortfallFen: 500 });
      expect(await reverseRebateOfOrder(t.deps, 'R-NO-SUCH-ORDER')).toEqual({ outcome: 'none' });
    });
  });

  it('masks e-mails for other customers', () => {
    expect(maskEmail('ben@example.com')).toBe('be***@example.com');
    expect(maskEmail('b@example.com')).toBe('b***@example.com');
  });

  itOnPostgres(
    'a notification replayed concurrently creates one rebate, and two payout runners pay it once',
    async () => {
      const url = (t.db as { url?: string }).url;
      const second = await openDb({ url, poolSize: 10 });
      try {
        const secondDeps = { ...t.deps, db: second.db };
        const before = await balanceFen(t.deps, ann.userId);
        const orders = await Promise.all(['100', '200', '300'].map((a) => order(ben, a)));
        // Each order's one notification, ten times at once, across two database pools (two API instances).
        await Promise.all(
          orders.flatMap((o) => Array.from({ length: 10 }, (_, i) => o.notify(i % 2 === 0 ? t.deps : secondDeps))),
        );
        const rows = await t.db.db.select().from(rebates).where(eq(rebates.inviteeId, ben.userId));
        for (const o of orders) expect(rows.filter((r) => r.orderId === o.id)).toHaveLength(1);
        const runners = [
          createRebatePayoutJob(t.deps),
          createRebatePayoutJob(secondDeps),
          createRebatePayoutJob(t.deps),
          createRebatePayoutJob(secondDeps),
        ];
        const counts = await Promise.all(runners.map((r) => r.runOnce()));
        expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
        expect(await balanceFen(t.deps, ann.userId)).toBe(before + 500 + 1000 + 1500);
        for (const o of orders) {
          const paid = await t.db.db
            .select()
            .from(ledgerEntries)
            .where(and(eq(ledgerEntries.userId, ann.userId), eq(ledgerEntries.idempotencyKey, rebatePaymentKey(o.id))));
          expect(paid).toHaveLength(1);
        }
        // Direct concurrent payers on one due rebate: one pays, the rest find nothing.
        const last = await order(ben, '100');
        await last.notify();
        const results = await Promise.all([
          payNextRebate(t.deps),
          payNextRebate(secondDeps),
          payNextRebate(t.deps),
          payNextRebate(secondDeps),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await sumEntryDeltas(t.db.db, ann.userId)).availableFen).toBe(await balanceFen(t.deps, ann.userId));
      } finally {
        await second.close();
      }
    },
  );

  it('keeps every balance equal to its ledger', async () => {
    for (const user of [ann, ben])
      expect((await sumEntryDeltas(t.db.db, user.userId)).availableFen).toBe(await balanceFen(t.deps, user.userId));
  });
});
