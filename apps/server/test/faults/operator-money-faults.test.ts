import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { USDT_METHODS } from '@proxy/contract';
import type { TDbHandle } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import { callApiProcess, createApiSupervisor, cutCall, selectRows, TEST_JWT_SECRET } from '../fault-harness';
import { startFakeTron, type TFakeChain } from '../payments/fake-chains';
import { receiveNotification } from '../../src/features/payments/payments-settle.service';
import type { createSandboxProvider } from '../../src/features/payments/providers/sandbox';
import {
  balanceFen,
  createAdmin,
  createUser,
  creditFen,
  request,
  type TTestUser,
} from '../../src/features/proxies/proxies-test-kit';

// The API child killed (SIGKILL) while a supply request's fee is released
// (revoked) or consumed (completed), while a matched USDT transfer is
// credited, while an operator reverses a recharge and while an operator
// adjusts a balance; then started again: nothing half-written, the invariants
// hold, and the retry (the same call, the watcher's next pass, the same
// request id) completes the operation exactly once.
describeOnPostgres(
  'supply fees, reversals and adjustments survive crashes (needs PostgreSQL: the API runs as a second process)',
  () => {
    const mailer = createMemoryMailer();
    let handle: TDbHandle & { url?: string };
    let t: TTestApp;
    let apis: ReturnType<typeof createApiSupervisor>;
    let cat: TTestUser;
    let ops: TTestUser;

    const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);
    const countOf = async (query: SQL) => Number((await rows<{ n: number }>(query))[0]!.n);
    const frozenOf = async (userId: number) =>
      Number(
        (await rows<{ frozen_fen: number }>(sql`SELECT frozen_fen FROM balances WHERE user_id = ${userId}`))[0]!
          .frozen_fen,
      );
    const supplyBody = {
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      amount: 1,
      region: 'us',
      wait_days: 7,
      contact_email: 'cat@example.com',
      agree_terms: true,
    };
    const submitSupply = async () => {
      const res = await request(t.app, 'POST', '/token/supply', { token: cat.token, body: supplyBody });
      expect(res.json().code, res.body).toBe(0);
      return res.json().data as { request_id: number; cost: number };
    };
    const supplyState = async (id: number) => {
      const [row] = await rows<{ status: string }>(sql`SELECT status FROM supply_requests WHERE id = ${id}`);
      const moves = await rows<{ kind: string }>(
        sql`SELECT kind FROM ledger_entries WHERE reference = ${`supply:${id}`} ORDER BY id`,
      );
      return { status: row!.status, moves: moves.map((m) => m.kind) };
    };

    beforeAll(async () => {
      handle = await createTestDatabase({ poolSize: 4 });
      apis = createApiSupervisor(handle.url!, { DIRECT_EXIT_COUNTRY: 'us', PAY_SANDBOX: 'true' });
      // The child's start-up seeds prices, charge options and direct exits.
      await apis.with('supply.released');
      t = await createTestApp({
        database: handle,
        mailer,
        config: { PAY_SANDBOX: 'true', JWT_SECRET: TEST_JWT_SECRET },
      });
      cat = await createUser(t.app, mailer, 'cat');
      ops = await createAdmin(t.app, t.deps, mailer, 'ops');
      await creditFen(t.deps, cat.userId, 100_000);
    });
    afterAll(async () => {
      await apis?.close();
      await t?.close();
      await handle?.close();
    });

    it('a revoke killed after its release leaves the fee frozen and the request pending; the retry releases once', async () => {
      let api = await apis.with('supply.released');
      const { request_id: id, cost } = await submitSupply();
      const fee = cost * 100;
      const before = { available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) };
      const revoke = () => callApiProcess(api, 'POST', `/token/supply/revoke/${id}`, { token: cat.token });
      const pending = cutCall(revoke());
      await api.waitForFaultPoint('supply.released');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await supplyState(id)).toEqual({ status: 'pending', moves: ['freeze'] });
      expect({ available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) }).toEqual(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('supply.consumed');
      const retried = await revoke();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { status: 'cancelled' } });
      expect((await revoke()).json.data).toMatchObject({ error: 'SUPPLY_ENDED' });
      expect(await supplyState(id)).toEqual({ status: 'cancelled', moves: ['freeze', 'release'] });
      expect({ available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) }).toEqual({
        available: before.available + fee,
        frozen: before.frozen - fee,
      });
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a completion killed after its consume leaves the request processing, its fee frozen and no tokens; the retry completes once', async () => {
      let api = await apis.with('supply.consumed');
      const { request_id: id, cost } = await submitSupply();
      const fee = cost * 100;
      const taken = await request(t.app, 'POST', `/admin/supply/take/${id}`, { token: ops.token });
      expect(taken.json().data, taken.body).toMatchObject({ status: 'processing' });
      const before = { available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) };
      const tokensOf = () =>
        countOf(
          sql`SELECT count(*)::int AS n FROM proxy_tokens WHERE user_id = ${cat.userId} AND remark = ${`supply #${id}`}`,
        );
      const complete = () => callApiProcess(api, 'POST', `/admin/supply/complete/${id}`, { token: ops.token });
      const pending = cutCall(complete());
      await api.waitForFaultPoint('supply.consumed');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await supplyState(id)).toEqual({ status: 'processing', moves: ['freeze'] });
      expect(await tokensOf()).toBe(0);
      expect({ available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) }).toEqual(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('reversal.debited');
      const retried = await complete();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { status: 'success' } });
      expect((await complete()).json.data).toMatchObject({ error: 'SUPPLY_NOT_PROCESSING' });
      expect(await supplyState(id)).toEqual({ status: 'success', moves: ['freeze', 'consume'] });
      expect(await tokensOf()).toBe(1);
      expect({ available: await balanceFen(t.deps, cat.userId), frozen: await frozenOf(cat.userId) }).toEqual({
        available: before.available,
        frozen: before.frozen - fee,
      });
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it('a reversal killed after its debit leaves the order paid and the balance whole; the retry takes the value back once', async () => {
      let api = await apis.with('reversal.debited');
      const order = (await request(t.app, 'POST', '/pay/charge/sandbox/30', { token: cat.token })).json().data;
      const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
      await receiveNotification(
        t.deps,
        'sandbox',
        sandbox.notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success'),
        '127.0.0.1',
      );
      const before = await balanceFen(t.deps, cat.userId);
      const reversalState = async () => {
        const [row] = await rows<{ status: string; reversed: boolean }>(
          sql`SELECT status, reversed_at IS NOT NULL AS reversed FROM pay_orders WHERE id = ${order.order_id}`,
        );
        const debits = await countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE idempotency_key = ${`reverse:${order.order_id}`}`,
        );
        return { ...row, debits };
      };
      const reverse = () =>
        callApiProcess(api, 'POST', `/admin/payments/orders/${order.order_id}/reverse`, {
          token: ops.token,
          body: { reason: 'Refunded by bank' },
        });
      const pending = cutCall(reverse());
      await api.waitForFaultPoint('reversal.debited');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await reversalState()).toEqual({ status: 'success', reversed: false, debits: 0 });
      expect(await balanceFen(t.deps, cat.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('adjust.moved');
      const retried = await reverse();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({ code: 0, data: { taken_back: 30, debt: 0 } });
      expect((await reverse()).json.data).toMatchObject({ error: 'ORDER_NOT_REVERSIBLE' });
      expect(await reversalState()).toEqual({ status: 'success', reversed: true, debits: 1 });
      expect(await balanceFen(t.deps, cat.userId)).toBe(before - 3000);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });

    it("an operator's balance adjustment killed after its entry moves nothing; the retry with the same request id moves it once", async () => {
      let api = await apis.with('adjust.moved');
      const before = await balanceFen(t.deps, cat.userId);
      const body = {
        kind: 'credit',
        amount: '12.34',
        reason: 'Goodwill for an outage',
        request_id: 'adjust-crash-0001',
      };
      const adjust = () =>
        callApiProcess(api, 'POST', `/admin/users/${cat.userId}/balance`, { token: ops.token, body });
      const entries = () =>
        countOf(
          sql`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = ${cat.userId} AND idempotency_key = 'adjust:adjust-crash-0001'`,
        );
      const pending = cutCall(adjust());
      await api.waitForFaultPoint('adjust.moved');
      await api.kill();
      expect(await pending).toMatchObject({ message: 'fetch failed' });
      expect(await entries()).toBe(0);
      expect(await balanceFen(t.deps, cat.userId)).toBe(before);
      expect(await findLedgerViolations(handle.db)).toEqual([]);

      api = await apis.with('');
      const retried = await adjust();
      expect(retried.json, JSON.stringify(retried.json)).toMatchObject({
        code: 0,
        data: { is_replay: false, balance: (before + 1234) / 100 },
      });
      const again = await adjust();
      expect(again.json.data).toEqual({ ...retried.json.data, is_replay: true });
      expect(await entries()).toBe(1);
      expect(await balanceFen(t.deps, cat.userId)).toBe(before + 1234);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });
  },
);

// USDT and the sandbox are never on together: the USDT crash has a database, a fake chain and an API child of its own.
describeOnPostgres('USDT top-ups survive crashes (needs PostgreSQL: the API runs as a second process)', () => {
  const mailer = createMemoryMailer();
  const jobs = { JOBS_ENABLED: 'true', JOBS_INTERVAL_MS: '100' };
  let handle: TDbHandle & { url?: string };
  let t: TTestApp;
  let chain: TFakeChain;
  let apis: ReturnType<typeof createApiSupervisor>;
  let cat: TTestUser;

  const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);
  const countOf = async (query: SQL) => Number((await rows<{ n: number }>(query))[0]!.n);

  beforeAll(async () => {
    handle = await createTestDatabase({ poolSize: 4 });
    chain = await startFakeTron();
    const usdt = { ...chain.env, USDT_CNY_RATE: '7.20' };
    apis = createApiSupervisor(handle.url!, { DIRECT_EXIT_COUNTRY: 'us', ...usdt, USDT_POLL_INTERVAL_S: '1' });
    await apis.with('usdt.credited', jobs);
    t = await createTestApp({ database: handle, mailer, config: { JWT_SECRET: TEST_JWT_SECRET, ...usdt } });
    cat = await createUser(t.app, mailer, 'cat');
  });
  afterAll(async () => {
    await apis?.close();
    await t?.close();
    await chain?.close();
    await handle?.close();
  });

  it("a matched USDT transfer killed mid-credit is neither recorded nor credited; the restarted watcher's pass credits it once", async () => {
    let api = await apis.with('usdt.credited', jobs);
    // The watcher's first pass sets its cursor at the chain's head: transfers before it are not ours to see.
    await expect
      .poll(() => countOf(sql`SELECT count(*)::int AS n FROM usdt_watch_cursors WHERE network = 'trc20'`))
      .toBe(1);
    const charged = await request(t.app, 'POST', `/pay/charge/${USDT_METHODS.trc20}/20`, { token: cat.token });
    expect(charged.json().code, charged.body).toBe(0);
    const order = charged.json().data as { order_id: string; value: number; crypto: { amount: string } };
    const [whole, fraction = ''] = order.crypto.amount.split('.');
    const before = await balanceFen(t.deps, cat.userId);
    const txHash = chain.send({ amount: BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0')) });
    chain.finalize();
    const state = async () => {
      const [row] = await rows<{ status: string }>(sql`SELECT status FROM pay_orders WHERE id = ${order.order_id}`);
      const transfers = await rows<{ status: string }>(
        sql`SELECT status FROM usdt_transfers WHERE order_id = ${order.order_id} OR tx_hash = ${txHash}`,
      );
      const credits = await countOf(
        sql`SELECT count(*)::int AS n FROM ledger_entries WHERE reason = 'recharge' AND reference = ${order.order_id}`,
      );
      return { order: row!.status, transfers: transfers.map((r) => r.status), credits };
    };
    await api.waitForFaultPoint('usdt.credited');
    await api.kill();
    expect(await state()).toEqual({ order: 'pending', transfers: [], credits: 0 });
    expect(await balanceFen(t.deps, cat.userId)).toBe(before);
    expect(await findLedgerViolations(handle.db)).toEqual([]);

    api = await apis.with('', jobs);
    await expect.poll(state).toEqual({ order: 'success', transfers: ['credited'], credits: 1 });
    expect(await balanceFen(t.deps, cat.userId)).toBe(before + order.value * 100);
    // Later passes read the chain again and move nothing.
    chain.requests.length = 0;
    chain.finalize();
    await expect.poll(() => chain.requests.length).toBeGreaterThan(1);
    expect(await state()).toEqual({ order: 'success', transfers: ['credited'], credits: 1 });
    expect(await findLedgerViolations(handle.db)).toEqual([]);
  });
});
