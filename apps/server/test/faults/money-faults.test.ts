import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rechargeFeeFen } from '@proxy/contract';
import type { TDbHandle } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import {
  API_APPLICATION_NAME,
  callApiProcess,
  createApiSupervisor,
  cutCall,
  selectRows,
  TEST_JWT_SECRET,
} from '../fault-harness';
import { createSandboxProvider } from '../../src/features/payments/providers/sandbox';
import { balanceFen, createUser, request, type TTestUser } from '../../src/features/proxies/proxies-test-kit';

// The API as a child process on PostgreSQL, killed (SIGKILL) in the middle of
// a money transaction, or cut off from its database mid-transaction, then
// asked again: the operation completes exactly once and the invariants hold.
// One database for the file; the users are made through an in-process app on
// the same database (the child accepts its sign-ins: same JWT secret).
describeOnPostgres(
  'money operations survive crashes and lost connections (needs PostgreSQL: the API runs as a second process)',
  () => {
    const mailer = createMemoryMailer();
    let handle: TDbHandle & { url?: string };
    let t: TTestApp;
    let apis: ReturnType<typeof createApiSupervisor>;
    let alice: TTestUser;

    const ipBody = { category: 'isp', network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };
    const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);
    const ordersOfKey = (userId: number, key: string) =>
      rows<{ id: number }>(
        sql`SELECT id FROM proxy_orders WHERE user_id = ${userId} AND idempotency_key = ${`purchase:${key}`}`,
      );
    const debitsOfKey = (userId: number, key: string) =>
      rows<{ id: number }>(
        sql`SELECT id FROM ledger_entries WHERE user_id = ${userId} AND idempotency_key = ${`purchase:${key}`}`,
      );

    beforeAll(async () => {
      handle = await createTestDatabase({ poolSize: 4 });
      apis = createApiSupervisor(handle.url!, { DIRECT_EXIT_COUNTRY: 'us', PAY_SANDBOX: 'true' });
      // The child's start-up seeds prices and direct exits before the users buy.
      await apis.with('purchase.debited');
      t = await createTestApp({
        database: handle,
        mailer,
        config: { PAY_SANDBOX: 'true', JWT_SECRET: TEST_JWT_SECRET },
      });
      alice = await createUser(t.app, mailer, 'alice');
    });
    afterAll(async () => {
      await apis?.close();
      await t?.close();
      await handle?.close();
    });

    it('a purchase killed after its debit leaves nothing; the retry with the same Idempotency-Key buys once', async () => {
      let api = await apis.with('purchase.debited');
      const before = await balanceFen(t.deps, alice.userId);
      const buy = () =>
        callApiProcess(api, 'POST', '/token/static/ip', {
          token: alice.token,
          body: ipBody,
          headers: { 'idempotency-key': 'crash-1' },
        });
      const pending = cutCall(buy());
      await api.waitForFaultPoint('purchase.debited');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      // The debit was written but never committed: no order, no debit, no token, the balance as before.
      expect(await ordersOfKey(alice.userId, 'crash-1')).toEqual([]);
      expect(await debitsOfKey(alice.userId, 'crash-1')).toEqual([]);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      // Started again (with the next test's crash point, so that it can use this process).
      api = await apis.with('settle.credited');
      const retried = await buy();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { cost: 2 } });
      const again = await buy();
      expect(again.json.data).toEqual(retried.json.data);
      expect(await ordersOfKey(alice.userId, 'crash-1')).toEqual([{ id: retried.json.data.order_id }]);
      expect(await debitsOfKey(alice.userId, 'crash-1')).toHaveLength(1);
      const tokens = await rows<{ id: number }>(
        sql`SELECT id FROM proxy_tokens WHERE order_id = ${retried.json.data.order_id}`,
      );
      expect(tokens.map((r) => r.id)).toEqual(
        retried.json.data.tokens.map((token: { token_id: number }) => token.token_id),
      );
      expect(await balanceFen(t.deps, alice.userId)).toBe(before - 200);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("a top-up notification killed mid-settlement credits nothing; the provider's resend credits once", async () => {
      let api = await apis.with('settle.credited');
      const before = await balanceFen(t.deps, alice.userId);
      const charge = await request(t.app, 'POST', '/pay/charge/sandbox/10', { token: alice.token });
      expect(charge.json().code, charge.body).toBe(0);
      const orderId = charge.json().data.order_id as string;
      // The provider's notification, signed once and sent again as is (same transaction id).
      const sandbox = createSandboxProvider({ secret: TEST_JWT_SECRET, publicUrl: api.url });
      const notification = sandbox.notificationFor({ id: orderId, priceFen: 1000 + rechargeFeeFen(1000) }, 'success');
      const send = () =>
        fetch(`${api.url}/api/pay/notify/sandbox`, {
          method: 'POST',
          headers: notification.headers,
          body: notification.rawBody,
        });
      const pending = cutCall(send());
      await api.waitForFaultPoint('settle.credited');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      const order = async () =>
        (await rows<{ status: string }>(sql`SELECT status FROM pay_orders WHERE id = ${orderId}`))[0]?.status;
      const credits = () =>
        rows<{ id: number }>(sql`SELECT id FROM ledger_entries WHERE reason = 'recharge' AND reference = ${orderId}`);
      expect(await order()).toBe('pending');
      expect(await credits()).toEqual([]);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('purchase.debited:sleep');
      for (let i = 0; i < 2; i += 1) {
        const resent = await send();
        expect(resent.status).toBe(200);
        expect(await resent.text()).toBe('success');
      }
      expect(await order()).toBe('success');
      expect(await credits()).toHaveLength(1);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before + 1000);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("the API's database connections terminated mid-transaction: a clear 503, nothing written, the next request succeeds", async () => {
      const api = await apis.with('purchase.debited:sleep');
      const before = await balanceFen(t.deps, alice.userId);
      const buy = (lang = 'en') =>
        callApiProcess(api, 'POST', '/token/static/ip', {
          token: alice.token,
          body: ipBody,
          headers: { 'idempotency-key': 'cut-1', lang },
        });
      const pending = buy('zh');
      await api.waitForFaultPoint('purchase.debited');
      // Every connection of the API (the one holding the purchase's transaction, in pg_sleep, and the idle ones).
      await expect
        .poll(
          async () =>
            (
              await rows(
                sql`SELECT pid FROM pg_stat_activity WHERE application_name = ${API_APPLICATION_NAME} AND query LIKE '%pg_sleep%'`,
              )
            ).length,
        )
        .toBe(1);
      const terminated = await rows<{ ok: boolean }>(
        sql`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ${API_APPLICATION_NAME} AND pid <> pg_backend_pid()`,
      );
      expect(terminated.length).toBeGreaterThanOrEqual(1);
      const answer = await pending;
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({
        code: 503,
        msg: '处理请求时数据库连接中断，请稍后重试',
        data: { error: 'DATABASE_UNAVAILABLE' },
      });
      expect(await ordersOfKey(alice.userId, 'cut-1')).toEqual([]);
      expect(await debitsOfKey(alice.userId, 'cut-1')).toEqual([]);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      // The pool replaced its connections: the retry goes through, once.
      const retried = await buy();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { cost: 2 } });
      expect(await ordersOfKey(alice.userId, 'cut-1')).toHaveLength(1);
      expect(await debitsOfKey(alice.userId, 'cut-1')).toHaveLength(1);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before - 200);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
      // The process lived through it.
      expect((await callApiProcess(api, 'GET', '/user/info', { token: alice.token })).json.code).toBe(0);
    });
  },
);
