// Past ~400 lines: a supply request's whole life (submit, revoke, take, complete or fail, expiry, races) shares one app,
// SMTP sink and database copy (each test file starts its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { VALIDATION_MESSAGES, ERRORS, type TLang, type TValidationKey } from '@proxy/contract';
import { notifications, proxyTokens, supplyContactEmails, supplyRequests } from '@proxy/db';
import {
  createFakeClock,
  createTestApp,
  describeOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { smtpTeeMailer, startSmtpSink } from '../../../test/smtp-sink';
import { importInventory } from '../inventory/inventory.service';
import { createLedgerService } from '../ledger/ledger.service';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import {
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../proxies/proxies-test-kit';
import { createSupplyRefundJob } from '../../jobs/token-jobs';
import { completeSupply, revokeSupply, takeSupply } from './supply.service';

const DAY_MS = 24 * 60 * 60 * 1000;

const trafficBody = {
  type: 'traffic',
  product: 'dynamic',
  network: 'HTTP',
  amount: 2,
  region: 'us',
  wait_days: 7,
  remark: 'restock please',
  contact_email: 'ops-contact@example.com',
  agree_terms: true,
};

describe('supply requests', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let mailer: TMemoryMailer;
  let t: TTestApp;
  let ann: TTestUser;
  let bob: TTestUser;
  let ops: TTestUser;

  const balances = (user: TTestUser) => createLedgerService(t.deps).getBalance(user.userId);
  // The ledger's entries add up to the balance row (ARCHITECTURE.md, Money).
  async function expectLedgerConsistent(user: TTestUser) {
    const sums = await sumEntryDeltas(t.db.db, user.userId);
    const balance = await balances(user);
    expect({ availableFen: sums.availableFen, frozenFen: sums.frozenFen }).toEqual(balance);
  }
  const submit = (user: TTestUser, body: object, options: { lang?: TLang; headers?: Record<string, string> } = {}) =>
    request(t.app, 'POST', '/token/supply', { token: user.token, body, ...options });
  const submitOk = async (user: TTestUser, body: object = trafficBody) => {
    const res = await submit(user, body);
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as {
      request_id: number;
      cost: number;
      status: string;
      balance: number;
      frozen_balance: number;
    };
  };
  const admin = (method: 'GET' | 'POST', url: string, body?: object, lang?: TLang) =>
    request(t.app, method, url, { token: ops.token, body, lang });
  const mailsTo = (address: string) => sink.received.filter((m) => m.to.includes(address));
  const notificationKinds = async (user: TTestUser) =>
    (await t.db.db.select().from(notifications).where(eq(notifications.userId, user.userId)))
      .map((n) => n.kind)
      .filter((k) => k.startsWith('supply_'));

  beforeAll(async () => {
    sink = await startSmtpSink();
    mailer = smtpTeeMailer(sink.url);
    t = await createTestApp({ clock, mailer, config: { DIRECT_EXIT_COUNTRY: 'us', SUPPLY_SUBMIT_MAX: '1000' } });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    bob = await createUser(t.app, mailer, 'bob');
    ops = await createAdmin(t.app, t.deps, mailer, 'ops');
    await creditFen(t.deps, ann.userId, 100_000);
    // Ann's contact address confirmed its link before (supply-mail.routes.test.ts shows the confirmation).
    await t.db.db.insert(supplyContactEmails).values({
      userId: ann.userId,
      email: trafficBody.contact_email,
      tokenHash: 'confirmed-before',
      sentAt: clock.now(),
      confirmedAt: clock.now(),
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it("links a work order about a request to it, and refuses a work order about another customer's request", async () => {
    const created = await submitOk(ann);
    const before = await request(t.app, 'GET', `/token/supply/${created.request_id}`, { token: ann.token });
    expect(before.json().data.work_order_id).toBeNull();
    const body = {
      category: 'supply',
      subject: 'Restock',
      content: 'When will it arrive?',
      supply_request_id: created.request_id,
    };
    const foreign = await request(t.app, 'POST', '/user/work/order', { token: bob.token, body });
    expect([foreign.statusCode, foreign.json().data.error]).toEqual([404, 'WORK_ORDER_SUPPLY_NOT_FOUND']);
    const opened = await request(t.app, 'POST', '/user/work/order', { token: ann.token, body });
    expect(opened.json().code, opened.body).toBe(0);
    const after = await request(t.app, 'GET', `/token/supply/${created.request_id}`, { token: ann.token });
    expect(after.json().data.work_order_id).toBe(opened.json().data.id);
    const listed = await request(t.app, 'GET', '/token/supply/list', { token: ann.token });
    expect(
      listed.json().data.records.find((r: { request_id: number }) => r.request_id === created.request_id).work_order_id,
    ).toBe(opened.json().data.id);
    await request(t.app, 'POST', `/token/supply/revoke/${created.request_id}`, { token: ann.token });
  });

  describe('spec section 5 rules, at and beyond their bounds, in both languages', () => {
    const refusals: [string, object, string, TValidationKey][] = [
      ['traffic 0 GB', { amount: 0 }, 'amount', 'supplyTrafficRange'],
      ['traffic 1001 GB', { amount: 1001 }, 'amount', 'supplyTrafficRange'],
      ['traffic 1.5 GB', { amount: 1.5 }, 'amount', 'supplyTrafficRange'],
      ['0 IPs', { type: 'ip', amount: 0 }, 'amount', 'supplyIpRange'],
      ['101 IPs', { type: 'ip', amount: 101 }, 'amount', 'supplyIpRange'],
      ['wait 0 days', { wait_days: 0 }, 'wait_days', 'supplyWaitDaysRange'],
      ['wait 31 days', { wait_days: 31 }, 'wait_days', 'supplyWaitDaysRange'],
      ['wait 2.5 days', { wait_days: 2.5 }, 'wait_days', 'supplyWaitDaysRange'],
      ['no region', { region: undefined }, 'region', 'supplyRegionRequired'],
      ['an empty region', { region: '' }, 'region', 'supplyRegionRequired'],
      ['a region that is no country code', { region: 'usa' }, 'region', 'supplyRegionInvalid'],
      ['a region that is no country (zz)', { region: 'zz' }, 'region', 'supplyRegionInvalid'],
      ['a region that is no country (xx)', { region: 'xx' }, 'region', 'supplyRegionInvalid'],
      ['no contact e-mail', { contact_email: undefined }, 'contact_email', 'supplyContactEmailRequired'],
      ['an empty contact e-mail', { contact_email: ' ' }, 'contact_email', 'supplyContactEmailRequired'],
      ['an invalid contact e-mail', { contact_email: 'not-an-email' }, 'contact_email', 'emailInvalid'],
      ['terms not agreed', { agree_terms: false }, 'agree_terms', 'supplyTermsRequired'],
      ['terms missing', { agree_terms: undefined }, 'agree_terms', 'supplyTermsRequired'],
      ['terms as a string', { agree_terms: 'true' }, 'agree_terms', 'supplyTermsRequired'],
      ['an unknown type', { type: 'box' }, 'type', 'supplyTypeInvalid'],
      ['an unknown product', { product: 'mobile' }, 'product', 'supplyProductInvalid'],
      ['a long remark', { remark: 'x'.repeat(201) }, 'remark', 'supplyRemarkMax'],
    ];
    for (const [name, patch, path, key] of refusals) {
      it(`refuses ${name} with the catalogue's message, and freezes nothing`, async () => {
        for (const lang of ['en', 'zh'] as const) {
          const res = await submit(ann, { ...trafficBody, ...patch }, { lang });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().data.issues).toContainEqual({ path, message: VALIDATION_MESSAGES[key][lang] });
          expect(res.json().msg).toBe(VALIDATION_MESSAGES[key][lang]);
        }
        expect((await balances(ann)).frozenFen).toBe(0);
      });
    }

    it('accepts every bound: 1 and 1000 GB, 1 and 100 IPs, 1 and 30 wait days, "uk" as gb and a country the inventory knows', async () => {
      const bob2 = bob;
      await creditFen(t.deps, bob2.userId, 10_000_000);
      const accepted: [object, number][] = [
        [{ amount: 1 }, 4000],
        [{ amount: 1000 }, 3_500_000],
        [{ type: 'ip', product: 'static', amount: 1 }, 6000],
        [{ type: 'ip', product: 'static', amount: 100, days: 1 }, 20_000],
        [{ wait_days: 1 }, 8000],
        [{ wait_days: 30, region: 'UK' }, 8000],
        [{ region: 'it', product: 'idc' }, 2000],
      ];
      for (const [patch, costFen] of accepted) {
        const data = await submitOk(bob2, { ...trafficBody, ...patch });
        expect(data.cost, JSON.stringify(patch)).toBe(costFen / 100);
        await revokeSupply(t.deps, bob2.userId, data.request_id, 'en');
      }
      const uk = (await request(t.app, 'GET', '/token/supply/list', { token: bob2.token }))
        .json()
        .data.records.find((r: { wait_days: number }) => r.wait_days === 30);
      expect(uk).toMatchObject({ region: 'uk', region_name: 'United Kingdom' });
      await expectLedgerConsistent(bob2);
      expect((await balances(bob2)).frozenFen).toBe(0);
    });
  });

  it('freezes the fee on submit (the list price), notifies and e-mails the contact address; the list and detail show it', async () => {
    const before = await balances(ann);
    const sentBefore = mailsTo(trafficBody.contact_email).length;
    const data = await submitOk(ann);
    // 2 GB of dynamic residential traffic at 40 yuan/GB.
    expect(data).toMatchObject({
      status: 'pending',
      cost: 80,
      balance: (before.availableFen - 8000) / 100,
      frozen_balance: 80,
    });
    expect(await balances(ann)).toEqual({ availableFen: before.availableFen - 8000, frozenFen: 8000 });
    await expectLedgerConsistent(ann);
    const detail = (
      await request(t.app, 'GET', `/token/supply/${data.request_id}`, { token: ann.token, lang: 'zh' })
    ).json().data;
    expect(detail).toMatchObject({
      request_id: data.request_id,
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      amount: 2,
      days: null,
      region: 'us',
      region_name: '美国',
      wait_days: 7,
      cost: 80,
      remark: 'restock please',
      contact_email: trafficBody.contact_email,
      status: 'pending',
      submit_time: clock.now().toISOString(),
      completed_time: null,
      deadline: new Date(clock.now().getTime() + 7 * DAY_MS).toISOString(),
      work_order_id: null,
    });
    const list = (await request(t.app, 'GET', '/token/supply/list?status=pending', { token: ann.token })).json().data;
    expect(list.records.map((r: { request_id: number }) => r.request_id)).toContain(data.request_id);
    expect(mailsTo(trafficBody.contact_email).length).toBe(sentBefore + 1);
    expect(mailer.last(trafficBody.contact_email)!.text).toContain(`#${data.request_id}`);
    expect(await notificationKinds(ann)).toContain('supply_pending');
    // Another user's request is not found, and cannot be revoked.
    expect((await request(t.app, 'GET', `/token/supply/${data.request_id}`, { token: bob.token })).json().code).toBe(
      404,
    );
    expect(
      (await request(t.app, 'POST', `/token/supply/revoke/${data.request_id}`, { token: bob.token })).json().code,
    ).toBe(404);
    await revokeSupply(t.deps, ann.userId, data.request_id, 'en');
  });

  it('refuses a request the balance cannot cover, in both languages, and freezes nothing', async () => {
    const poor = await createUser(t.app, mailer, 'poor');
    for (const lang of ['en', 'zh'] as const) {
      const res = await submit(poor, { ...trafficBody, amount: 10 }, { lang });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({
        code: ERRORS.SUPPLY_INSUFFICIENT_BALANCE.code,
        data: { error: 'SUPPLY_INSUFFICIENT_BALANCE' },
      });
      expect(res.json().msg).toBe(
        ERRORS.SUPPLY_INSUFFICIENT_BALANCE[lang].replace('{cost}', '400.00').replace('{balance}', '15.00'),
      );
    }
    expect(await balances(poor)).toEqual({ availableFen: 1500, frozenFen: 0 });
    expect((await t.db.db.select().from(supplyRequests).where(eq(supplyRequests.userId, poor.userId))).length).toBe(0);
  });

  it('revoke releases the fee once; a second revoke is refused', async () => {
    const before = await balances(ann);
    const data = await submitOk(ann);
    const revoked = await request(t.app, 'POST', `/token/supply/revoke/${data.request_id}`, { token: ann.token });
    expect(revoked.json().data).toMatchObject({ status: 'cancelled' });
    expect(revoked.json().data.completed_time).not.toBeNull();
    expect(await balances(ann)).toEqual(before);
    for (const lang of ['en', 'zh'] as const) {
      const again = await request(t.app, 'POST', `/token/supply/revoke/${data.request_id}`, { token: ann.token, lang });
      expect(again.json()).toMatchObject({ code: ERRORS.SUPPLY_ENDED.code, msg: ERRORS.SUPPLY_ENDED[lang] });
    }
    expect(await balances(ann)).toEqual(before);
    expect(await notificationKinds(ann)).toContain('supply_cancelled');
    await expectLedgerConsistent(ann);
  });

  it('a request an operator took can still be revoked until it is completed; completing it then is refused', async () => {
    const before = await balances(ann);
    const data = await submitOk(ann);
    expect((await admin('POST', `/admin/supply/take/${data.request_id}`)).json().data).toMatchObject({
      status: 'processing',
    });
    const revoked = await request(t.app, 'POST', `/token/supply/revoke/${data.request_id}`, { token: ann.token });
    expect(revoked.json().data, revoked.body).toMatchObject({ status: 'cancelled' });
    expect(await balances(ann)).toEqual(before);
    expect((await admin('POST', `/admin/supply/complete/${data.request_id}`)).json().code).toBe(
      ERRORS.SUPPLY_NOT_PROCESSING.code,
    );
    expect(await balances(ann)).toEqual(before);
    await expectLedgerConsistent(ann);
  });

  it('a repeated Idempotency-Key submits and freezes once; the same key for another request is a conflict', async () => {
    const before = await balances(ann);
    const headers = { 'idempotency-key': 'supply-1' };
    const first = await submit(ann, trafficBody, { headers });
    const second = await submit(ann, trafficBody, { headers });
    expect(second.json().data.request_id).toBe(first.json().data.request_id);
    expect(await balances(ann)).toEqual({
      availableFen: before.availableFen - 8000,
      frozenFen: before.frozenFen + 8000,
    });
    const conflict = await submit(ann, { ...trafficBody, amount: 3 }, { headers });
    expect(conflict.json().code).toBe(ERRORS.IDEMPOTENCY_CONFLICT.code);
    await revokeSupply(t.deps, ann.userId, first.json().data.request_id, 'en');
    expect(await balances(ann)).toEqual(before);
  });

  it('operators only: the queue, take, complete and fail are refused to customers', async () => {
    const data = await submitOk(ann);
    for (const [method, url] of [
      ['GET', '/admin/supply/list'],
      ['POST', `/admin/supply/take/${data.request_id}`],
      ['POST', `/admin/supply/complete/${data.request_id}`],
    ] as const) {
      expect((await request(t.app, method, url, { token: ann.token })).statusCode).toBe(403);
    }
    expect(
      (
        await request(t.app, 'POST', `/admin/supply/fail/${data.request_id}`, {
          token: ann.token,
          body: { reason: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await balances(ann)).frozenFen).toBe(8000);
    await revokeSupply(t.deps, ann.userId, data.request_id, 'en');
  });

  it('success: taken, then completed: the fee is consumed and a 2 GB dynamic traffic package is in the customer list', async () => {
    const before = await balances(ann);
    const data = await submitOk(ann);
    // Completing before taking is refused.
    expect((await admin('POST', `/admin/supply/complete/${data.request_id}`)).json().code).toBe(
      ERRORS.SUPPLY_NOT_PROCESSING.code,
    );
    const queue = (await admin('GET', '/admin/supply/list?status=pending')).json().data;
    expect(queue.records.find((r: { request_id: number }) => r.request_id === data.request_id)).toMatchObject({
      user_id: ann.userId,
      user_email: ann.email,
      available: 1,
    });
    const taken = await admin('POST', `/admin/supply/take/${data.request_id}`);
    expect(taken.json().data).toMatchObject({ status: 'processing' });
    const done = await admin('POST', `/admin/supply/complete/${data.request_id}`);
    expect(done.json().data, done.body).toMatchObject({ status: 'success' });
    expect(done.json().data.completed_time).toBe(clock.now().toISOString());
    expect(await balances(ann)).toEqual({ availableFen: before.availableFen - 8000, frozenFen: before.frozenFen });
    const tokens = (await request(t.app, 'GET', '/token/list/variable/traffic', { token: ann.token })).json().data
      .records;
    expect(tokens[0]).toMatchObject({
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      remark: `supply #${data.request_id}`,
      usage: { used_bytes: 0, limit_bytes: 2 * 1024 ** 3 },
      expires_at: new Date(clock.now().getTime() + 30 * DAY_MS).toISOString(),
    });
    // Completed once: again is refused and moves nothing.
    expect((await admin('POST', `/admin/supply/complete/${data.request_id}`)).json().code).toBe(
      ERRORS.SUPPLY_NOT_PROCESSING.code,
    );
    expect((await admin('POST', `/admin/supply/fail/${data.request_id}`, { reason: 'late' })).json().code).toBe(
      ERRORS.SUPPLY_ENDED.code,
    );
    expect(await balances(ann)).toEqual({ availableFen: before.availableFen - 8000, frozenFen: before.frozenFen });
    expect(await notificationKinds(ann)).toEqual(expect.arrayContaining(['supply_processing', 'supply_success']));
    const subjects = mailsTo(trafficBody.contact_email).map((m) => m.raw);
    expect(subjects.length).toBeGreaterThanOrEqual(3);
    await expectLedgerConsistent(ann);
  });

  it('completing by IP needs free exits in the region: the answer says what is missing; after an import it allocates the IPs', async () => {
    const before = await balances(ann);
    const data = await submitOk(ann, {
      ...trafficBody,
      type: 'ip',
      product: 'static',
      amount: 2,
      days: 30,
      region: 'jp',
    });
    expect(data.cost).toBe(120);
    await admin('POST', `/admin/supply/take/${data.request_id}`);
    for (const lang of ['en', 'zh'] as const) {
      const short = await admin('POST', `/admin/supply/complete/${data.request_id}`, undefined, lang);
      expect(short.json()).toMatchObject({ code: ERRORS.SUPPLY_NO_STOCK.code });
      expect(short.json().msg).toBe(
        ERRORS.SUPPLY_NO_STOCK[lang].replace('{region}', 'JP').replace('{needed}', '2').replace('{available}', '0'),
      );
    }
    // Nothing moved: still processing, the fee still frozen.
    expect(await balances(ann)).toEqual({
      availableFen: before.availableFen - 12_000,
      frozenFen: before.frozenFen + 12_000,
    });
    await importInventory(t.deps, '10.9.0.1:3128,jp,,\n10.9.0.2:3128,jp,,\n', 'residential');
    const done = await admin('POST', `/admin/supply/complete/${data.request_id}`);
    expect(done.json().data, done.body).toMatchObject({ status: 'success', available: 0 });
    const tokens = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.country, 'jp'));
    expect(tokens).toHaveLength(2);
    expect(
      tokens.every(
        (tk) => tk.userId === ann.userId && tk.billing === 'ip' && tk.exitNodeId !== null && tk.periodDays === 30,
      ),
    ).toBe(true);
    expect(await balances(ann)).toEqual({ availableFen: before.availableFen - 12_000, frozenFen: before.frozenFen });
    await expectLedgerConsistent(ann);
  });

  it('failure: the operator gives a reason, the fee is released, the customer is told', async () => {
    const before = await balances(ann);
    const data = await submitOk(ann);
    for (const lang of ['en', 'zh'] as const) {
      const noReason = await admin('POST', `/admin/supply/fail/${data.request_id}`, { reason: ' ' }, lang);
      expect(noReason.json().data.issues).toContainEqual({
        path: 'reason',
        message: VALIDATION_MESSAGES.supplyReasonRequired[lang],
      });
    }
    await admin('POST', `/admin/supply/take/${data.request_id}`);
    const failed = await admin('POST', `/admin/supply/fail/${data.request_id}`, { reason: 'upstream out of stock' });
    expect(failed.json().data).toMatchObject({ status: 'failed', fail_reason: 'upstream out of stock' });
    expect(await balances(ann)).toEqual(before);
    expect(mailer.last(trafficBody.contact_email)!.text).toContain('upstream out of stock');
    expect(await notificationKinds(ann)).toContain('supply_failed');
    await expectLedgerConsistent(ann);
  });

  it('an open request past its wait days is refunded by the job, once', async () => {
    const before = await balances(ann);
    const pending = await submitOk(ann, { ...trafficBody, wait_days: 1 });
    const processing = await submitOk(ann, { ...trafficBody, wait_days: 2 });
    await takeSupply(t.deps, ops.userId, processing.request_id, 'en');
    const job = createSupplyRefundJob(t.deps);
    clock.advance(DAY_MS - 1);
    expect(await job.runOnce()).toBe(0);
    clock.advance(1);
    expect(await job.runOnce()).toBe(1);
    expect(
      (await request(t.app, 'GET', `/token/supply/${pending.request_id}`, { token: ann.token })).json().data.status,
    ).toBe('refunded');
    expect((await balances(ann)).frozenFen).toBe(before.frozenFen + 8000);
    clock.advance(DAY_MS);
    expect(await job.runOnce()).toBe(1);
    expect(await job.runOnce()).toBe(0);
    expect(
      (await request(t.app, 'GET', `/token/supply/${processing.request_id}`, { token: ann.token })).json().data.status,
    ).toBe('refunded');
    expect(await balances(ann)).toEqual(before);
    expect(await notificationKinds(ann)).toContain('supply_refunded');
    // A refunded request can no longer be completed.
    await expect(completeSupply(t.deps, processing.request_id, 'en')).rejects.toMatchObject({
      errorName: 'SUPPLY_NOT_PROCESSING',
    });
    await expectLedgerConsistent(ann);
  });
});

describeOnPostgres('supply requests on PostgreSQL with two API instances', () => {
  it('a revoke racing a take-and-complete resolves to exactly one, a key repeated concurrently submits once; the money moves once', async () => {
    const { buildApp } = await import('../../app');
    const { createMemoryMailer, createTestConfig } = await import('../../../test/helpers');
    const { openDb } = await import('@proxy/db');
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer, config: { DIRECT_EXIT_COUNTRY: 'us', SUPPLY_SUBMIT_MAX: '1000' } });
    const otherDb = await openDb({ url: (t.db as { url?: string }).url! });
    const second = await buildApp({
      config: createTestConfig({ DIRECT_EXIT_COUNTRY: 'us', SUPPLY_SUBMIT_MAX: '1000' }),
      database: otherDb,
      mailer,
      logger: false,
    });
    await second.app.ready();
    try {
      await seedProxyStartup(t.deps);
      const cy = await createUser(t.app, mailer, 'cy');
      const op = await createAdmin(t.app, t.deps, mailer, 'op');
      await creditFen(t.deps, cy.userId, 100_000);
      const start = await createLedgerService(t.deps).getBalance(cy.userId);
      const outcomes = { revoked: 0, completed: 0 };
      for (let round = 0; round < 8; round += 1) {
        const res = await request(t.app, 'POST', '/token/supply', {
          token: cy.token,
          body: { ...trafficBody, amount: 1 },
        });
        const id = res.json().data.request_id as number;
        // Half the rounds take it first (complete can win), half race the take itself.
        if (round % 2 === 0) await request(second.app, 'POST', `/admin/supply/take/${id}`, { token: op.token });
        const answers = await Promise.all([
          request(t.app, 'POST', `/token/supply/revoke/${id}`, { token: cy.token }),
          request(second.app, 'POST', `/admin/supply/take/${id}`, { token: op.token }).then(() =>
            request(second.app, 'POST', `/admin/supply/complete/${id}`, { token: op.token }),
          ),
          request(t.app, 'POST', `/admin/supply/complete/${id}`, { token: op.token }),
        ]);
        const [revoke, complete1, complete2] = answers.map((a) => a.json().code);
        const wins = [revoke, complete1, complete2].filter((c) => c === 0).length;
        expect(wins, JSON.stringify(answers.map((a) => a.json()))).toBe(1);
        const [row] = await t.db.db.select().from(supplyRequests).where(eq(supplyRequests.id, id));
        if (revoke === 0) {
          expect(row.status).toBe('cancelled');
          outcomes.revoked += 1;
        } else {
          expect(row.status).toBe('success');
          outcomes.completed += 1;
        }
      }
      const end = await createLedgerService(t.deps).getBalance(cy.userId);
      expect(end).toEqual({ availableFen: start.availableFen - outcomes.completed * 4000, frozenFen: 0 });
      const sums = await sumEntryDeltas(t.db.db, cy.userId);
      expect({ availableFen: sums.availableFen, frozenFen: sums.frozenFen }).toEqual(end);
      const tokens = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.userId, cy.userId));
      expect(tokens).toHaveLength(outcomes.completed);

      // Ten submits with one Idempotency-Key on both instances: one request, one freeze, the same answer.
      const before = await createLedgerService(t.deps).getBalance(cy.userId);
      const headers = { 'idempotency-key': 'race-key' };
      const twins = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request(i % 2 ? second.app : t.app, 'POST', '/token/supply', {
            token: cy.token,
            body: { ...trafficBody, amount: 1 },
            headers,
          }),
        ),
      );
      expect(twins.map((a) => a.json().code)).toEqual(Array(10).fill(0));
      expect(new Set(twins.map((a) => a.json().data.request_id)).size).toBe(1);
      expect(await createLedgerService(t.deps).getBalance(cy.userId)).toEqual({
        availableFen: before.availableFen - 4000,
        frozenFen: 4000,
      });
    } finally {
      await second.app.close();
      await otherDb.close();
      await t.close();
    }
  });
});
