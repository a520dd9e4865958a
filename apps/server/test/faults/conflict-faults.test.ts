import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rechargeFeeFen } from '@proxy/contract';
import type { TDbHandle } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import { callApiProcess, createApiSupervisor, selectRows, TEST_JWT_SECRET, type TApiProcess } from '../fault-harness';
import { receiveNotification } from '../../src/features/payments/payments-settle.service';
import { createSandboxProvider } from '../../src/features/payments/providers/sandbox';
import {
  balanceFen,
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  type TTestUser,
} from '../../src/features/proxies/proxies-test-kit';

// Serialization failures and deadlocks raised by PostgreSQL inside the money
// transactions (FAULT_POINTS <point>:40001 / :40P01, after the first write):
// a purchase or a renewal (database work only) is run again and goes
// through once; a supply request and a top-up settlement answer a clear
// error, write nothing, and the client's retry or the provider's resend
// completes them once.
describeOnPostgres(
  'money operations under serialization failures and deadlocks (needs PostgreSQL: the API runs as a second process)',
  () => {
    const mailer = createMemoryMailer();
    let handle: TDbHandle & { url?: string };
    let t: TTestApp;
    let apis: ReturnType<typeof createApiSupervisor>;
    let api: TApiProcess;
    let dora: TTestUser;
    let ops: TTestUser;

    const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);
    const countOf = async (query: SQL) => Number((await rows<{ n: number }>(query))[0]!.n);
    const ipBody = { category: 'isp', network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };

    beforeAll(async () => {
      handle = await createTestDatabase({ poolSize: 4 });
      apis = createApiSupervisor(handle.url!, { DIRECT_EXIT_COUNTRY: 'us', PAY_SANDBOX: 'true' });
      // All points in one process: none of them stops it.
      api = await apis.with(
        'purchase.debited:40001,renew.debited:40P01,supply.frozen:40001,settle.credited:40P01,' +
          'supply.released:40P01,supply.consumed:40001,reversal.debited:40001,adjust.moved:40P01',
      );
      t = await createTestApp({
        database: handle,
        mailer,
        config: { PAY_SANDBOX: 'true', JWT_SECRET: TEST_JWT_SECRET },
      });
      dora = await createUser(t.app, mailer, 'dora');
      ops = await createAdmin(t.app, t.deps, mailer, 'ops');
      await creditFen(t.deps, dora.userId, 100_000);
    });
    afterAll(async () => {
      await apis?.close();
      await t?.close();
      await handle?.close();
    });

    it('a purchase aborted by a serialization failure after its debit is run again: one order, one debit, its token', async () => {
      const before = await balanceFen(t.deps, dora.userId);
      const bought = await callApiProcess(api, 'POST', '/token/static/ip', {
        token: dora.token,
        body: ipBody,
        headers: { 'idempotency-key': 'conflict-1' },
      });
      await api.waitForFaultPoint('purchase.debited');
      expect(bought.json, JSON.stringify(bought.json)).toMatchObject({ code: 0, data: { cost: 2 } });
      expect(
        await countOf(
          sql`SELECT count(*)::int AS n FROM proxy_orders WHERE user_id = ${dora.userId} AND idempotency_key = 'purchase:conflict-1'`,
        ),
      ).toBe(1);
      expect(
        await countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = ${dora.userId} AND idempotency_key = 'purchase:conflict-1'`,
        ),
      ).toBe(1);
      expect(
        await countOf(sql`SELECT count(*)::int AS n FROM proxy_tokens WHERE order_id = ${bought.json.data.order_id}`),
      ).toBe(1);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before - 200);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a renewal aborted by a deadlock after its debit is run again: renewed once', async () => {
      const [token] = (await buyOk(t.app, dora.token, '/token/static/ip', ipBody)).tokens;
      const before = await balanceFen(t.deps, dora.userId);
      const renewed = await callApiProcess(api, 'POST', '/token/ip/renew', {
        token: dora.token,
        body: { token_ids: [token!.token_id], days: 2, payway: 'balance' },
      });
      await api.waitForFaultPoint('renew.debited');
      expect(renewed.json, JSON.stringify(renewed.json)).toMatchObject({ code: 0, data: { success: 1 } });
      expect(
        await countOf(
          sql`SELECT count(*)::int AS n FROM proxy_orders WHERE user_id = ${dora.userId} AND action = 'renew'`,
        ),
      ).toBe(1);
      expect(
        await countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = ${dora.userId} AND reason = 'renew'`,
        ),
      ).toBe(1);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before - renewed.json.data.cost * 100);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a supply request aborted by a serialization failure answers a clear conflict and writes nothing; the retry freezes once', async () => {
      const before = await balanceFen(t.deps, dora.userId);
      const body = {
        type: 'traffic',
        product: 'dynamic',
        network: 'HTTP',
        amount: 1,
        region: 'us',
        wait_days: 3,
        contact_email: 'dora@example.com',
        agree_terms: true,
      };
      const submit = (lang = 'en') =>
        callApiProcess(api, 'POST', '/token/supply', {
          token: dora.token,
          body,
          headers: { 'idempotency-key': 'supply-c', lang },
        });
      const requests = () =>
        countOf(sql`SELECT count(*)::int AS n FROM supply_requests WHERE user_id = ${dora.userId}`);
      const refused = await submit();
      await api.waitForFaultPoint('supply.frozen');
      expect(refused.status).toBe(409);
      expect(refused.json).toEqual({
        code: 409,
        msg: 'The operation collided with another one at the same time; nothing was changed, please try again',
        data: { error: 'DATABASE_CONFLICT' },
      });
      expect(await requests()).toBe(0);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      const retried = await submit();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0 });
      expect((await submit()).json.data.request_id).toBe(retried.json.data.request_id);
      expect(await requests()).toBe(1);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before - retried.json.data.cost * 100);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("a top-up settlement aborted by a deadlock is refused to the provider and credits nothing; the provider's resend credits once", async () => {
      const before = await balanceFen(t.deps, dora.userId);
      const charge = await request(t.app, 'POST', '/pay/charge/sandbox/20', { token: dora.token });
      expect(charge.json().code, charge.body).toBe(0);
      const orderId = charge.json().data.order_id as string;
      const notification = createSandboxProvider({ secret: TEST_JWT_SECRET, publicUrl: api.url }).notificationFor(
        { id: orderId, priceFen: 2000 + rechargeFeeFen(2000) },
        'success',
      );
      const send = () =>
        fetch(`${api.url}/api/pay/notify/sandbox`, {
          method: 'POST',
          headers: notification.headers,
          body: notification.rawBody,
        });
      const credits = () =>
        countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE reason = 'recharge' AND reference = ${orderId}`,
        );
      const first = await send();
      await api.waitForFaultPoint('settle.credited');
      // Not the provider's "success": it sends the notification again later.
      expect(first.status).toBe(409);
      expect(await credits()).toBe(0);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before);
      for (let i = 0; i < 2; i += 1) {
        const resent = await send();
        expect(await resent.text()).toBe('success');
      }
      expect(await credits()).toBe(1);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before + 2000);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    const conflict = {
      code: 409,
      msg: 'The operation collided with another one at the same time; nothing was changed, please try again',
      data: { error: 'DATABASE_CONFLICT' },
    };
    const supplyBody = {
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      amount: 1,
      region: 'us',
      wait_days: 3,
      contact_email: 'dora@example.com',
      agree_terms: true,
    };
    const submitSupply = async () => {
      const res = await request(t.app, 'POST', '/token/supply', { token: dora.token, body: supplyBody });
      expect(res.json().code, res.body).toBe(0);
      return res.json().data.request_id as number;
    };
    const movesOf = async (id: number) =>
      (
        await rows<{ kind: string }>(
          sql`SELECT kind FROM ledger_entries WHERE reference = ${`supply:${id}`} ORDER BY id`,
        )
      ).map((r) => r.kind);

    it("a supply fee's release aborted by a deadlock answers a clear conflict and moves nothing, its consume aborted by a serialization failure is run again: each moves once", async () => {
      const revoked = await submitSupply();
      const revoke = () => callApiProcess(api, 'POST', `/token/supply/revoke/${revoked}`, { token: dora.token });
      const refused = await revoke();
      await api.waitForFaultPoint('supply.released');
      expect([refused.status, refused.json]).toEqual([409, conflict]);
      expect(await movesOf(revoked)).toEqual(['freeze']);
      expect((await revoke()).json.data).toMatchObject({ status: 'cancelled' });
      expect(await movesOf(revoked)).toEqual(['freeze', 'release']);

      const completed = await submitSupply();
      expect((await request(t.app, 'POST', `/admin/supply/take/${completed}`, { token: ops.token })).json().code).toBe(
        0,
      );
      const complete = () => callApiProcess(api, 'POST', `/admin/supply/complete/${completed}`, { token: ops.token });
      // Database work only (it changes the gateways' state): run again by itself, and done once.
      const retried = await complete();
      await api.waitForFaultPoint('supply.consumed');
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { status: 'success' } });
      expect(
        await countOf(sql`SELECT count(*)::int AS n FROM proxy_tokens WHERE remark = ${`supply #${completed}`}`),
      ).toBe(1);
      expect((await complete()).json.data).toMatchObject({ error: 'SUPPLY_NOT_PROCESSING' });
      expect(await movesOf(completed)).toEqual(['freeze', 'consume']);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a reversal aborted by a serialization failure answers a clear conflict and takes nothing back; the retry takes it back once', async () => {
      const order = (await request(t.app, 'POST', '/pay/charge/sandbox/40', { token: dora.token })).json().data;
      const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
      await receiveNotification(
        t.deps,
        'sandbox',
        sandbox.notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
        '127.0.0.1',
      );
      const before = await balanceFen(t.deps, dora.userId);
      const reverse = (lang = 'en') =>
        callApiProcess(api, 'POST', `/admin/payments/orders/${order.order_id}/reverse`, {
          token: ops.token,
          body: { reason: 'Refunded by bank' },
          headers: { lang },
        });
      const refused = await reverse('zh');
      await api.waitForFaultPoint('reversal.debited');
      expect([refused.status, refused.json]).toEqual([
        409,
        { ...conflict, msg: '操作与其他操作同时发生冲突，本次操作未生效，请重试' },
      ]);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before);
      expect(
        await countOf(
          sql`SELECT count(*)::int AS n FROM pay_orders WHERE id = ${order.order_id} AND reversed_at IS NOT NULL`,
        ),
      ).toBe(0);
      expect((await reverse()).json).toMatchObject({ code: 0, data: { taken_back: 40, debt: 0 } });
      expect((await reverse()).json.data).toMatchObject({ error: 'ORDER_NOT_REVERSIBLE' });
      expect(await balanceFen(t.deps, dora.userId)).toBe(before - 4000);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a balance adjustment aborted by a deadlock answers a clear conflict and moves nothing; the retry with the same request id moves once', async () => {
      const before = await balanceFen(t.deps, dora.userId);
      const body = { kind: 'debit', amount: '3.21', reason: 'Correction', request_id: 'adjust-conflict-1' };
      const adjust = () =>
        callApiProcess(api, 'POST', `/admin/users/${dora.userId}/balance`, { token: ops.token, body });
      const refused = await adjust();
      await api.waitForFaultPoint('adjust.moved');
      expect([refused.status, refused.json]).toEqual([409, conflict]);
      expect(await balanceFen(t.deps, dora.userId)).toBe(before);
      expect((await adjust()).json).toMatchObject({
        code: 0,
        data: { is_replay: false, balance: (before - 321) / 100 },
      });
      expect((await adjust()).json).toMatchObject({
        code: 0,
        data: { is_replay: true, balance: (before - 321) / 100 },
      });
      expect(await balanceFen(t.deps, dora.userId)).toBe(before - 321);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });
  },
);
