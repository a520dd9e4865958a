import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rechargeFeeFen } from '@proxy/contract';
import type { TDbHandle } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import { callApiProcess, createApiSupervisor, cutCall, selectRows, TEST_JWT_SECRET } from '../fault-harness';
import { registerUser } from '../../src/features/auth/auth-test-kit';
import { receiveNotification } from '../../src/features/payments/payments-settle.service';
import type { createSandboxProvider } from '../../src/features/payments/providers/sandbox';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  type TTestUser,
} from '../../src/features/proxies/proxies-test-kit';

// The API child killed (SIGKILL) in a renewal, a supply request's freeze, an
// auto-renew job pass and a rebate payout, then started again: nothing
// half-written, the client's retry (or the job's next pass) does it once, and
// the invariants hold. Users and their money are made in-process on the same
// database (see money-faults.test.ts).
describeOnPostgres(
  'renewals, supply requests and the money jobs survive crashes (needs PostgreSQL: the API runs as a second process)',
  () => {
    const mailer = createMemoryMailer();
    let handle: TDbHandle & { url?: string };
    let t: TTestApp;
    let apis: ReturnType<typeof createApiSupervisor>;
    let bob: TTestUser;
    const DAY_MS = 24 * 3_600_000;
    // The jobs every 100 ms, for the job tests.
    const jobs = { JOBS_ENABLED: 'true', JOBS_INTERVAL_MS: '100' };

    const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);
    const expiryOf = async (tokenId: number) =>
      new Date(
        (await rows<{ expires_at: string | Date }>(sql`SELECT expires_at FROM proxy_tokens WHERE id = ${tokenId}`))[0]!
          .expires_at,
      ).getTime();
    const countOf = async (query: SQL) => Number((await rows<{ n: number }>(query))[0]!.n);

    beforeAll(async () => {
      handle = await createTestDatabase({ poolSize: 4 });
      apis = createApiSupervisor(handle.url!, { DIRECT_EXIT_COUNTRY: 'us', PAY_SANDBOX: 'true' });
      // The child's start-up seeds prices and direct exits before the users buy.
      await apis.with('renew.debited');
      t = await createTestApp({
        database: handle,
        mailer,
        config: { PAY_SANDBOX: 'true', JWT_SECRET: TEST_JWT_SECRET },
      });
      bob = await createUser(t.app, mailer, 'bob');
      await creditFen(t.deps, bob.userId, 100_000);
    });
    afterAll(async () => {
      await apis?.close();
      await t?.close();
      await handle?.close();
    });

    it('a renewal killed after its debit leaves the token as it was; the retry with the same Idempotency-Key renews once', async () => {
      let api = await apis.with('renew.debited');
      const [token] = (
        await buyOk(t.app, bob.token, '/token/static/ip', {
          category: 'isp',
          network: 'HTTP',
          country_id: 'us',
          quantity: 1,
          days: 1,
        })
      ).tokens;
      const expiry = await expiryOf(token!.token_id);
      const before = await balanceFen(t.deps, bob.userId);
      const renew = () =>
        callApiProcess(api, 'POST', '/token/ip/renew', {
          token: bob.token,
          body: { token_ids: [token!.token_id], days: 3, payway: 'balance' },
          headers: { 'idempotency-key': 'renew-crash-1' },
        });
      const renewals = () =>
        countOf(sql`SELECT count(*)::int AS n FROM proxy_orders WHERE user_id = ${bob.userId} AND action = 'renew'`);
      const pending = cutCall(renew());
      await api.waitForFaultPoint('renew.debited');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await renewals()).toBe(0);
      expect(await expiryOf(token!.token_id)).toBe(expiry);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('supply.frozen');
      const retried = await renew();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { success: 1, failed: 0 } });
      // Sent again (the client never saw an answer it trusts): the first renewal's answer, nothing more.
      expect((await renew()).json.data).toEqual(retried.json.data);
      expect(await renewals()).toBe(1);
      expect(await expiryOf(token!.token_id)).toBe(expiry + 3 * DAY_MS);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before - retried.json.data.cost * 100);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a supply request killed after its freeze leaves nothing; the retry with the same Idempotency-Key freezes once', async () => {
      let api = await apis.with('supply.frozen');
      const body = {
        type: 'traffic',
        product: 'dynamic',
        network: 'HTTP',
        amount: 2,
        region: 'us',
        wait_days: 7,
        contact_email: 'bob@example.com',
        agree_terms: true,
      };
      const submit = () =>
        callApiProcess(api, 'POST', '/token/supply', {
          token: bob.token,
          body,
          headers: { 'idempotency-key': 'supply-1' },
        });
      const requests = () => countOf(sql`SELECT count(*)::int AS n FROM supply_requests WHERE user_id = ${bob.userId}`);
      const frozen = async () =>
        (await rows<{ frozen_fen: number }>(sql`SELECT frozen_fen FROM balances WHERE user_id = ${bob.userId}`))[0]!
          .frozen_fen;
      const before = await balanceFen(t.deps, bob.userId);
      const pending = cutCall(submit());
      await api.waitForFaultPoint('supply.frozen');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await requests()).toBe(0);
      expect(await frozen()).toBe(0);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('auto-renew.debited', jobs);
      const first = await submit();
      expect(first.json, JSON.stringify(first.json)).toMatchObject({ code: 0, data: { status: 'pending' } });
      const again = await submit();
      expect(again.json.data.request_id).toBe(first.json.data.request_id);
      expect(await requests()).toBe(1);
      const fee = first.json.data.cost * 100;
      expect(await frozen()).toBe(fee);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before - fee);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("an auto-renew job pass killed after its debit renews nothing; the restarted job's pass renews once", async () => {
      let api = await apis.with('auto-renew.debited', jobs);
      const [token] = (
        await buyOk(t.app, bob.token, '/token/static/ip', {
          category: 'isp',
          network: 'HTTP',
          country_id: 'us',
          quantity: 1,
          days: 1,
          auto_renew: true,
        })
      ).tokens;
      const before = await balanceFen(t.deps, bob.userId);
      const autoRenewals = () =>
        countOf(
          sql`SELECT count(*)::int AS n FROM proxy_orders WHERE user_id = ${bob.userId} AND action = 'auto_renew'`,
        );
      // Due within the hour: the job's next pass takes it.
      await handle.db.execute(
        sql`UPDATE proxy_tokens SET expires_at = now() + interval '30 minutes' WHERE id = ${token!.token_id}`,
      );
      const expiry = await expiryOf(token!.token_id);
      await api.waitForFaultPoint('auto-renew.debited');
      await api.kill();
      expect(await autoRenewals()).toBe(0);
      expect(await expiryOf(token!.token_id)).toBe(expiry);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('rebate.credited', jobs);
      await expect.poll(autoRenewals).toBe(1);
      expect(await expiryOf(token!.token_id)).toBe(expiry + DAY_MS);
      const debits = await rows<{ amount: number }>(
        sql`SELECT -available_delta AS amount FROM ledger_entries WHERE user_id = ${bob.userId} AND reason = 'auto_renew' AND reference = ${`proxy:${token!.token_id}`}`,
      );
      expect(debits).toHaveLength(1);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before - Number(debits[0]!.amount));
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("a rebate payout killed after its credit pays nothing; the restarted job's pass pays it once", async () => {
      let api = await apis.with('rebate.credited', jobs);
      // An invitee of bob's tops up 100 yuan: a rebate of 5 yuan is due at once (REBATE_HOLD_HOURS 0).
      const code = (await request(t.app, 'GET', '/invite/info', { token: bob.token })).json().data
        .invite_code as string;
      const invitee = await registerUser(t.app, mailer, {
        email: 'carl@example.com',
        username: 'carl',
        invite_code: code,
      });
      const charge = await request(t.app, 'POST', '/pay/charge/sandbox/100', { token: invitee });
      expect(charge.json().code, charge.body).toBe(0);
      const orderId = charge.json().data.order_id as string;
      const before = await balanceFen(t.deps, bob.userId);
      const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
      await receiveNotification(
        t.deps,
        'sandbox',
        sandbox.notificationFor({ id: orderId, priceFen: 10_000 + rechargeFeeFen(10_000) }, 'success'),
        '127.0.0.1',
      );
      const rebate = async () =>
        (
          await rows<{ status: string; rebate_fen: number }>(
            sql`SELECT status, rebate_fen FROM rebates WHERE order_id = ${orderId}`,
          )
        )[0];
      const payments = () =>
        countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = ${bob.userId} AND idempotency_key = ${`rebate:${orderId}`}`,
        );
      await api.waitForFaultPoint('rebate.credited');
      await api.kill();
      expect(await rebate()).toMatchObject({ status: 'pending' });
      expect(await payments()).toBe(0);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('', jobs);
      await expect.poll(async () => (await rebate())?.status).toBe('success');
      expect(await payments()).toBe(1);
      expect(await balanceFen(t.deps, bob.userId)).toBe(before + (await rebate())!.rebate_fen);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });
  },
);
