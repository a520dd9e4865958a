// Past ~400 lines: the USDT cases share one fake chain, app and database copy (each test file starts its own).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDT_METHODS, type TPayOrder } from '@proxy/contract';
import {
  ledgerEntries,
  openDb,
  payNotifications,
  payOrders,
  users,
  usdtAmountHolds,
  usdtTransfers,
  usdtWatchCursors,
} from '@proxy/db';
import { buildApp } from '../../app';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  createTestConfig,
  describeOnPostgres,
  itOnPostgres,
  type TMemoryMailer,
  type TTestApp,
} from '../../../test/helpers';
import { startFakeEthereum, startFakeTron, type TFakeChain } from '../../../test/payments/fake-chains';
import { createServerJobRunner } from '../../jobs/token-jobs';
import { balanceFen, createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { seedChargeOptions } from './payments-charge.service';
import { reconcileStaleOrders } from './payments-settle.service';
import { createPayProviders } from './providers';
import { usdtProviderOf, type TUsdtProvider } from './providers/usdt';
import { watchUsdtTransfers } from './usdt-watcher.service';
import { usdtBaseUnits, usdtCandidateUnits } from './usdt/usdt-amount';

/** "14.23" USDT -> 14230000n units. */
function usdtUnits(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

const CHAINS = [
  { network: 'trc20', start: startFakeTron },
  { network: 'erc20', start: startFakeEthereum },
] as const;

// USDT against a local fake of each chain: the watcher, the unique amounts, finality, and money that matches no order.
describe.each(CHAINS)('top-up with USDT on $network', ({ network, start }) => {
  const method = USDT_METHODS[network];
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));
  let chain: TFakeChain;
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let ann: TTestUser;
  let ben: TTestUser;
  let oper: TTestUser;
  let provider: TUsdtProvider;

  beforeAll(async () => {
    chain = await start(() => clock.now().getTime());
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, clock, config: { ...chain.env, USDT_CNY_RATE: '7.20' } });
    await seedChargeOptions(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    provider = usdtProviderOf(t.deps.payProviders.get(method))!;
    // The first pass sets the cursor on a fresh database.
    expect(await watchUsdtTransfers(t.deps, provider)).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const watch = (p: TUsdtProvider = provider) => watchUsdtTransfers(t.deps, p);
  const charge = async (
    user: TTestUser,
    amount: string,
  ): Promise<TPayOrder & { qr_code: string | null; mode: string }> => {
    const res = await request(t.app, 'POST', `/pay/charge/${method}/${amount}`, { token: user.token });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  const orderRow = async (id: string) => (await t.db.db.select().from(payOrders).where(eq(payOrders.id, id)))[0];
  const units = (order: TPayOrder) => usdtUnits(order.crypto!.amount);
  const transfersOf = async (txHash: string) =>
    t.db.db.select().from(usdtTransfers).where(eq(usdtTransfers.txHash, txHash.toLowerCase()));
  const timeOut = async () => {
    clock.advance(31 * 60_000);
    await reconcileStaleOrders(t.deps);
  };

  it('lists the method, and answers an order with its exact amount, the network, our address, the frozen rate and 30 minutes to pay', async () => {
    const options = (await request(t.app, 'GET', '/pay/option/list', { token: ann.token })).json().data;
    expect(options.methods).toEqual([{ method, modes: ['qr'] }]);
    expect(options.sandbox).toBe(false);
    const order = await charge(ann, '100');
    // 102 yuan at 7.20 is 14.1666... USDT, rounded up to 14.17; the offset adds 0.01 to 0.99.
    expect(order).toMatchObject({
      status: 'pending',
      method,
      mode: 'qr',
      price: 102,
      value: 100,
      pay_url: null,
      qr_code: chain.address,
    });
    expect(order.crypto).toMatchObject({ network, token: 'USDT', address: chain.address, rate: '7.20' });
    expect(order.crypto!.amount).toMatch(/^\d+\.\d{2}$/);
    expect(units(order)).toBeGreaterThanOrEqual(14_180_000n);
    expect(units(order)).toBeLessThanOrEqual(15_160_000n);
    expect(new Date(order.expires_at).getTime() - new Date(order.created_at).getTime()).toBe(30 * 60_000);
    const shown = (await request(t.app, 'GET', `/pay/order/${order.order_id}`, { token: ann.token })).json().data;
    expect(shown.crypto).toEqual(order.crypto);
    const bills = (await request(t.app, 'GET', '/pay/record/list', { token: ann.token })).json().data;
    expect(bills.records[0].crypto).toEqual(order.crypto);
    await request(t.app, 'POST', `/pay/cancel/${order.order_id}`, { token: ann.token });
  });

  it('asks the chain only for final transfers of the USDT contract to our address', async () => {
    chain.requests.length = 0;
    clock.advance(1000);
    chain.finalize();
    await watch();
    if (network === 'trc20') {
      const listing = chain.requests.find((r) => r.call === 'trc20-listing')!.params as Record<string, string>;
      expect(listing).toMatchObject({ only_confirmed: 'true', only_to: 'true', contract_address: chain.usdt });
    } else {
      const getLogs = chain.requests.find((r) => r.call === 'eth_getLogs')!.params as [
        { address: string; topics: (string | null)[]; toBlock: string },
      ];
      expect(getLogs[0].address.toLowerCase()).toBe(chain.usdt);
      expect(getLogs[0].topics[2]).toBe(`0x${'0'.repeat(24)}${chain.address.slice(2)}`);
      const finalized = chain.requests.find((r) => r.call === 'eth_getBlockByNumber')!.params as unknown[];
      expect(finalized[0]).toBe('finalized');
    }
  });

  it('credits a transfer of the exact amount once, and only after it is final', async () => {
    const order = await charge(ann, '100');
    const before = await balanceFen(t.deps, ann.userId);
    const tx = chain.send({ amount: units(order) });
    expect(await watch()).toBe(0);
    expect((await orderRow(order.order_id)).status).toBe('pending');
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 10_000);
    expect(await orderRow(order.order_id)).toMatchObject({ status: 'success', isPaidLate: false });
    const [row] = await transfersOf(tx);
    expect(row).toMatchObject({
      network,
      status: 'credited',
      orderId: order.order_id,
      userId: ann.userId,
      amountUnits: units(order).toString(),
    });
    expect(mailer.last(ann.email)?.text).toContain(order.order_id);
    // Seen again: nothing moves.
    chain.finalize();
    expect(await watch()).toBe(0);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 10_000);
    const info = (await request(t.app, 'GET', '/user/info', { token: ann.token })).json().data;
    expect(info.total_balance).toBe(100);
  });

  it('credits nothing for a transfer that disappears before it is final (reorganisation), even from an API that lists unfinished blocks', async () => {
    chain.sloppy = true;
    try {
      const order = await charge(ann, '50');
      const before = await balanceFen(t.deps, ann.userId);
      const tx = chain.send({ amount: units(order) });
      expect(await watch()).toBe(0);
      chain.reorg(tx);
      chain.finalize();
      expect(await watch()).toBe(0);
      expect(await balanceFen(t.deps, ann.userId)).toBe(before);
      expect((await orderRow(order.order_id)).status).toBe('pending');
      expect(await transfersOf(tx)).toEqual([]);
      // The chain goes on: the order's real payment still counts.
      chain.send({ amount: units(order) });
      chain.finalize();
      expect(await watch()).toBe(1);
      expect((await orderRow(order.order_id)).status).toBe('success');
    } finally {
      chain.sloppy = false;
    }
  });

  it('credits nothing for another token, another recipient or a failed transaction, even when the API does not filter them out', async () => {
    chain.sloppy = true;
    try {
      const order = await charge(ben, '10');
      const before = await balanceFen(t.deps, ben.userId);
      const txs = [
        chain.send({ amount: units(order), contract: chain.foreignToken }),
        chain.send({ amount: units(order), to: chain.otherAddress() }),
        chain.send({ amount: units(order) }, { isSuccess: false }),
      ];
      chain.finalize();
      expect(await watch()).toBe(0);
      expect(await balanceFen(t.deps, ben.userId)).toBe(before);
      expect((await orderRow(order.order_id)).status).toBe('pending');
      for (const tx of txs) expect(await transfersOf(tx)).toEqual([]);
      // One transaction with a foreign log and ours: only ours counts.
      const mixed = chain.send([{ amount: units(order), contract: chain.foreignToken }, { amount: units(order) }]);
      chain.finalize();
      expect(await watch()).toBe(1);
      expect((await transfersOf(mixed)).map((r) => r.status)).toEqual(['credited']);
      expect(await balanceFen(t.deps, ben.userId)).toBe(before + 1000);
    } finally {
      chain.sloppy = false;
    }
  });

  it('records an underpaid transfer for the operator without crediting it; the exact amount still pays the order', async () => {
    const order = await charge(ben, '200');
    const before = await balanceFen(t.deps, ben.userId);
    const short = units(order) - 10_000n;
    const tx = chain.send({ amount: short });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await balanceFen(t.deps, ben.userId)).toBe(before);
    expect((await orderRow(order.order_id)).status).toBe('pending');
    const [row] = await transfersOf(tx);
    expect(row).toMatchObject({ status: 'unmatched', orderId: null, userId: null, amountUnits: short.toString() });

    const listed = await request(t.app, 'GET', `/admin/payments/unmatched?network=${network}`, { token: oper.token });
    expect(listed.json().code, listed.body).toBe(0);
    expect(listed.json().data.records[0]).toMatchObject({
      network,
      tx_hash: tx.toLowerCase(),
      amount: `${(short / 1_000_000n).toString()}.${(short % 1_000_000n).toString().padStart(6, '0').slice(0, 2)}`,
      status: 'unmatched',
      order_id: null,
      note: expect.stringContaining('no order asks for'),
    });
    expect((await request(t.app, 'GET', '/admin/payments/unmatched', { token: ben.token })).statusCode).toBe(403);
    const bad = await request(t.app, 'GET', '/admin/payments/unmatched?network=btc', { token: oper.token, lang: 'zh' });
    expect([bad.statusCode, bad.json().data.issues[0].path, bad.json().data.issues[0].message]).toEqual([
      400,
      'network',
      '取值无效',
    ]);

    chain.send({ amount: units(order) });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await balanceFen(t.deps, ben.userId)).toBe(before + 20_000);
  });

  it('lets an operator credit an unmatched transfer to a customer once, as a recharge; customers cannot', async () => {
    const tx = chain.send({ amount: 3_330_000n }); // 3.33 USDT, no order asks for it
    chain.finalize();
    expect(await watch()).toBe(1);
    const [row] = await transfersOf(tx);
    const url = `/admin/payments/unmatched/${row.id}/assign`;
    const before = await balanceFen(t.deps, ann.userId);
    const totalOf = async () =>
      (await t.db.db.select({ fen: users.totalRechargeFen }).from(users).where(eq(users.id, ann.userId)))[0].fen;
    const totalBefore = await totalOf();

    expect(
      (await request(t.app, 'POST', url, { token: ann.token, body: { user_id: ann.userId, amount: '23.97' } }))
        .statusCode,
    ).toBe(403);
    const unknown = await request(t.app, 'POST', url, {
      token: oper.token,
      body: { user_id: 999_999, amount: '23.97' },
      lang: 'zh',
    });
    expect([unknown.statusCode, unknown.json().data.issues[0].path, unknown.json().data.issues[0].message]).toEqual([
      400,
      'user_id',
      '用户不存在',
    ]);
    const badAmount = await request(t.app, 'POST', url, {
      token: oper.token,
      body: { user_id: ann.userId, amount: '-1' },
      lang: 'en',
    });
    expect(badAmount.json().data.issues[0]).toEqual({
      path: 'amount',
      message: 'The adjustment must be a number with at most two decimals, such as 10 or 10.50',
    });

    const assigned = await request(t.app, 'POST', url, {
      token: oper.token,
      body: { user_id: ann.userId, amount: '23.97' },
    });
    expect(assigned.json().data, assigned.body).toMatchObject({
      id: row.id,
      status: 'credited',
      user_id: ann.userId,
      note: expect.stringContaining('¥23.97'),
    });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 2397);
    expect(await totalOf()).toBe(totalBefore + 2397);
    const again = await request(t.app, 'POST', url, { token: oper.token, body: { user_id: ben.userId, amount: '1' } });
    expect([again.statusCode, again.json().data.error]).toEqual([409, 'TRANSFER_ALREADY_CREDITED']);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 2397);
    const listed = (
      await request(t.app, 'GET', '/admin/payments/unmatched?page_size=200', { token: oper.token })
    ).json().data.records;
    expect(listed.some((r: { id: number }) => r.id === row.id)).toBe(false);
    expect(
      (
        await request(t.app, 'POST', '/admin/payments/unmatched/999999/assign', {
          token: oper.token,
          body: { user_id: ann.userId, amount: '1' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("lists every customer's orders for operators, with the customer, filtered by customer, method and status", async () => {
    const order = await charge(ben, '50');
    const mine = await request(
      t.app,
      'GET',
      `/admin/payments/orders?user_id=${ben.userId}&method=${method}&status=pending`,
      { token: oper.token },
    );
    expect(mine.json().data.records[0]).toMatchObject({
      order_id: order.order_id,
      user_id: ben.userId,
      user_email: ben.email,
      status: 'pending',
    });
    expect(mine.json().data.records.every((r: { user_id: number }) => r.user_id === ben.userId)).toBe(true);
    const one = await request(t.app, 'GET', `/admin/payments/orders?order_id=${order.order_id}`, { token: oper.token });
    expect(one.json().data.total).toBe(1);
    const none = await request(t.app, 'GET', `/admin/payments/orders?user_id=${ann.userId}&method=alipay`, {
      token: oper.token,
    });
    expect(none.json().data.total).toBe(0);
    expect((await request(t.app, 'GET', '/admin/payments/orders', { token: ben.token })).statusCode).toBe(403);
  });

  itOnPostgres('two operators assigning one transfer at once credit it once', async () => {
    const tx = chain.send({ amount: 4_440_000n });
    chain.finalize();
    await watch();
    const [row] = await transfersOf(tx);
    const before = await balanceFen(t.deps, ann.userId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        request(t.app, 'POST', `/admin/payments/unmatched/${row.id}/assign`, {
          token: oper.token,
          body: { user_id: ann.userId, amount: '31.97' },
        }),
      ),
    );
    expect(answers.filter((a) => a.json().code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(5);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 3197);
  });

  it('keeps a transfer larger than any order for the operator, exactly', async () => {
    const huge = 10n ** 19n;
    const tx = chain.send({ amount: huge });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect((await transfersOf(tx))[0]).toMatchObject({ status: 'unmatched', amountUnits: huge.toString() });
    const listed = (await request(t.app, 'GET', '/admin/payments/unmatched', { token: oper.token })).json().data;
    expect(listed.records.find((r: { tx_hash: string }) => r.tx_hash === tx.toLowerCase()).amount).toBe(
      '10000000000000.00',
    );
  });

  it('stops a pass when the chain API fails, changes nothing, and credits on the next pass', async () => {
    const order = await charge(ann, '10');
    const before = await balanceFen(t.deps, ann.userId);
    const [cursor] = await t.db.db.select().from(usdtWatchCursors).where(eq(usdtWatchCursors.network, network));
    chain.send({ amount: units(order) });
    chain.finalize();
    chain.failing = true;
    try {
      await expect(watch()).rejects.toThrow(/chain API answered 503/);
    } finally {
      chain.failing = false;
    }
    expect(
      (await t.db.db.select().from(usdtWatchCursors).where(eq(usdtWatchCursors.network, network)))[0].position,
    ).toBe(cursor.position);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await watch()).toBe(1);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
  });

  // fetch keeps connections alive and an API closes idle ones: a call sent on one just closed meets a reset (under
  // load this failed passes and "I have paid" with "chain API unreachable: TypeError").
  it('goes on through connections the chain API cuts, crediting once; when every attempt is cut, the pass stops and changes nothing', async () => {
    const order = await charge(ann, '10');
    const before = await balanceFen(t.deps, ann.userId);
    const cursorOf = async () =>
      (await t.db.db.select().from(usdtWatchCursors).where(eq(usdtWatchCursors.network, network)))[0].position;
    const cursor = await cursorOf();
    chain.send({ amount: units(order) });
    chain.finalize();
    chain.cutConnections = 1_000;
    try {
      await expect(watch()).rejects.toThrow('chain API unreachable: TypeError');
    } finally {
      chain.cutConnections = 0;
    }
    expect(await cursorOf()).toBe(cursor);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);

    chain.cutConnections = 2;
    expect(await watch()).toBe(1);
    expect(chain.cutConnections).toBe(0);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
    expect((await orderRow(order.order_id)).status).toBe('success');
    chain.cutConnections = 2;
    chain.finalize();
    expect(await watch()).toBe(0);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
  });

  it('keeps a second transfer of a paid order for the operator', async () => {
    const order = await charge(ben, '10');
    chain.send({ amount: units(order) });
    chain.finalize();
    await watch();
    const before = await balanceFen(t.deps, ben.userId);
    const again = chain.send({ amount: units(order) });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await balanceFen(t.deps, ben.userId)).toBe(before);
    expect((await transfersOf(again))[0]).toMatchObject({
      status: 'unmatched',
      note: `order ${order.order_id} of this amount is paid already`,
    });
  });

  it('credits a transfer after the order timed out (late) within the window, and keeps one after the window for the operator', async () => {
    const late = await charge(ann, '10');
    await timeOut();
    expect((await orderRow(late.order_id)).status).toBe('timeout');
    const before = await balanceFen(t.deps, ann.userId);
    chain.send({ amount: units(late) });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await orderRow(late.order_id)).toMatchObject({ status: 'success', isPaidLate: true });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);

    const tooLate = await charge(ann, '10');
    await timeOut();
    clock.advance((t.deps.config.USDT_LATE_MATCH_MIN + 1) * 60_000);
    const tx = chain.send({ amount: units(tooLate) });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect((await orderRow(tooLate.order_id)).status).toBe('timeout');
    expect((await transfersOf(tx))[0]).toMatchObject({ status: 'unmatched' });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 1000);
  });

  it('pays on time an order that timed out while its transfer waited for finality', async () => {
    const order = await charge(ann, '10');
    chain.send({ amount: units(order) });
    await timeOut();
    expect((await orderRow(order.order_id)).status).toBe('timeout');
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await orderRow(order.order_id)).toMatchObject({ status: 'success', isPaidLate: false });
  });

  it('after a restart goes on from the stored cursor, and credits nothing twice even when scanning everything again', async () => {
    const order = await charge(ann, '100');
    const before = await balanceFen(t.deps, ann.userId);
    const tx = chain.send({ amount: units(order) });
    chain.finalize();
    expect(await watch()).toBe(1);
    const [cursor] = await t.db.db.select().from(usdtWatchCursors).where(eq(usdtWatchCursors.network, network));
    // A new process: its own providers and chain client; only the database remembers.
    const restarted = usdtProviderOf(createPayProviders(t.deps.config).get(method))!;
    chain.requests.length = 0;
    expect(await watch(restarted)).toBe(0);
    if (network === 'trc20') {
      const listing = chain.requests.find((r) => r.call === 'trc20-listing')!.params as Record<string, string>;
      expect(Number(listing.min_timestamp)).toBe(cursor.position);
    } else {
      // Nothing new is final: no log query at all.
      expect(chain.requests.filter((r) => r.call === 'eth_getLogs')).toEqual([]);
    }
    await t.db.db.delete(usdtWatchCursors).where(eq(usdtWatchCursors.network, network));
    expect(await watch(restarted)).toBe(0);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before + 10_000);
    expect(await transfersOf(tx)).toHaveLength(1);
    const credits = await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, ann.userId), eq(ledgerEntries.reference, order.order_id)));
    expect(credits).toHaveLength(1);
  });

  it('gives orders distinct amounts, whole hundredths first and thousandths once those are held, answers 409 in the caller language when all 999 are held, and frees them once their window is over', async () => {
    const eve = await createUser(t.app, mailer, `eve-${network}`);
    // 77 yuan + 1.77 fee at 7.20: 10.94 USDT, plus the offset.
    const base = usdtBaseUnits(7877, provider.usdt.rateMicro);
    const candidates = usdtCandidateUnits(base);
    expect(candidates).toHaveLength(999);
    expect(new Set(candidates).size).toBe(999);
    expect(candidates.every((u) => u > base && u < base + 1_000_000n)).toBe(true);
    const hold = (amounts: bigint[]) =>
      t.db.db
        .insert(usdtAmountHolds)
        .values(
          amounts.map((u) => ({
            network,
            amountUnits: Number(u),
            orderId: 'held-elsewhere',
            heldUntil: new Date(clock.now().getTime() + 60 * 60_000),
          })),
        )
        .onConflictDoNothing();
    const first = await charge(eve, '77');
    expect(first.crypto!.amount).toMatch(/^\d+\.\d{2}$/);
    expect(units(first) > base && units(first) < base + 1_000_000n).toBe(true);
    await hold(candidates.filter((u) => u % 10_000n === 0n));
    const second = await charge(eve, '77');
    expect(second.crypto!.amount).toMatch(/^1[01]\.\d{3}$/);
    expect(units(second) > base && units(second) < base + 1_000_000n).toBe(true);
    await hold(candidates);
    const busy = await request(t.app, 'POST', `/pay/charge/${method}/77`, { token: eve.token });
    expect([busy.statusCode, busy.json().code, busy.json().msg]).toEqual([
      409,
      5004,
      'Too many open USDT orders of this amount; try again in a while or choose another amount',
    ]);
    const zh = await request(t.app, 'POST', `/pay/charge/${method}/77`, { token: eve.token, lang: 'zh' });
    expect(zh.json().msg).toBe('该金额的 USDT 订单过多，请稍后再试或更换金额');
    // Past the holds' time (and eve's orders' window for late transfers), every amount is free again.
    clock.advance((30 + t.deps.config.USDT_LATE_MATCH_MIN + 6) * 60_000);
    const next = await charge(eve, '77');
    expect(candidates).toContain(units(next));
  });

  it('lets one customer hold at most 3 unpaid orders of a network, cancelled ones counted while they hold their amount, so others can still pay any amount; a late payment after a cancellation still pays its order once', async () => {
    const cy = await createUser(t.app, mailer, `cy-${network}`);
    const dee = await createUser(t.app, mailer, `dee-${network}`);
    const accepted: TPayOrder[] = [];
    let refused: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 0; i < 99 && !refused; i++) {
      const res = await request(t.app, 'POST', `/pay/charge/${method}/20`, { token: cy.token });
      if (res.json().code !== 0) {
        refused = res;
        break;
      }
      accepted.push(res.json().data);
      await request(t.app, 'POST', `/pay/cancel/${res.json().data.order_id}`, { token: cy.token });
    }
    expect(accepted).toHaveLength(3);
    expect([refused!.statusCode, refused!.json().data.error, refused!.json().msg]).toEqual([
      409,
      'PAY_USDT_OPEN_LIMIT',
      'You have 3 unpaid USDT orders on this network (a cancelled or expired one counts until its window for late payments ends); pay one of them, or use another payment method',
    ]);
    const zh = await request(t.app, 'POST', `/pay/charge/${method}/20.01`, { token: cy.token, lang: 'zh' });
    expect(zh.json().msg).toBe(
      '您在该网络上已有 3 笔未支付的 USDT 订单（已取消或已超时的订单在其迟到付款窗口结束前仍计入）；请先支付其中一笔，或使用其他支付方式',
    );
    // Another customer pays either amount, for the yuan amount asked.
    for (const amount of ['20', '20.01']) {
      const res = await request(t.app, 'POST', `/pay/charge/${method}/${amount}`, { token: dee.token });
      expect(res.json().code, res.body).toBe(0);
      expect([res.json().data.amount, res.json().data.value]).toEqual([Number(amount), Number(amount)]);
      expect(accepted.map((o) => o.crypto!.amount)).not.toContain(res.json().data.crypto.amount);
    }
    // The first cancelled order is paid late: its own order is credited, once.
    const before = await balanceFen(t.deps, cy.userId);
    chain.send({ amount: units(accepted[0]) });
    chain.finalize();
    expect(await watch()).toBe(1);
    expect(await orderRow(accepted[0].order_id)).toMatchObject({ status: 'success', isPaidLate: true });
    chain.finalize();
    expect(await watch()).toBe(0);
    expect(await balanceFen(t.deps, cy.userId)).toBe(before + 2000);
    // A paid order no longer counts: one more order may be made.
    expect((await request(t.app, 'POST', `/pay/charge/${method}/20`, { token: cy.token })).json().code).toBe(0);
    expect((await request(t.app, 'POST', `/pay/charge/${method}/20`, { token: cy.token })).statusCode).toBe(409);
  });

  it('refuses a notification posted for a USDT method, and logs it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/pay/notify/${method}`,
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    const logged = await t.db.db.select().from(payNotifications).where(eq(payNotifications.method, method));
    expect(logged.at(-1)).toMatchObject({
      result: 'refused',
      reason: 'USDT payments are read from the chain, never notified',
    });
  });

  it("runs the network's watcher among the server's jobs, polling the chain at its own interval", async () => {
    const order = await charge(ann, '10');
    chain.send({ amount: units(order) });
    chain.finalize();
    // A failed pass is logged, not thrown: the log's errors are part of what is checked.
    const failures: string[] = [];
    const log = Object.create(t.deps.log) as typeof t.deps.log;
    log.error = ((fields: { err?: Error; job?: string }) =>
      void failures.push(`${fields.job}: ${fields.err?.message}`)) as typeof log.error;
    const runner = createServerJobRunner({ ...t.deps, log });
    expect((await runner.runAllOnce())[`usdt-${network}-watcher`]).toBe(1);
    expect((await orderRow(order.order_id)).status).toBe('success');
    chain.requests.length = 0;
    await runner.runAllOnce();
    expect(chain.requests).toEqual([]);
    clock.advance(t.deps.config.USDT_POLL_INTERVAL_S * 1000);
    await runner.runAllOnce();
    expect({ polled: chain.requests.length > 0, failures }).toEqual({ polled: true, failures: [] });
  });
});

describeOnPostgres('USDT on PostgreSQL with two API instances', () => {
  it.each(CHAINS)(
    'lets one account make at most 3 orders under 20 parallel charges, gives concurrent orders distinct amounts and credits each transfer once when both watchers run at once ($network)',
    async ({ network, start }) => {
      const method = USDT_METHODS[network];
      const chain = await start();
      const mailer = createMemoryMailer();
      const env = { ...chain.env, USDT_CNY_RATE: '7.20' };
      const first = await createTestApp({ mailer, config: env });
      // The second instance: its own pool, providers and chain client on the same database.
      const secondDb = await openDb({ url: (first.db as { url?: string }).url!, poolSize: 10 });
      const second = await buildApp({ config: createTestConfig(env), database: secondDb, mailer, logger: false });
      try {
        await seedChargeOptions(first.deps);
        const cy = await createUser(first.app, mailer, 'cy');
        // One account's parallel orders through both instances: at most 3.
        const racing = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            request(i % 2 ? second.app : first.app, 'POST', `/pay/charge/${method}/100`, { token: cy.token }),
          ),
        );
        expect(racing.filter((a) => a.json().code === 0)).toHaveLength(3);
        expect(racing.filter((a) => a.json().data?.error === 'PAY_USDT_OPEN_LIMIT')).toHaveLength(17);
        // Ten accounts at once: 30 orders, distinct amounts.
        const others = await Promise.all(Array.from({ length: 9 }, (_, i) => createUser(first.app, mailer, `cy${i}`)));
        const answers = [
          ...racing.filter((a) => a.json().code === 0),
          ...(await Promise.all(
            Array.from({ length: 27 }, (_, i) =>
              request(i % 2 ? second.app : first.app, 'POST', `/pay/charge/${method}/100`, {
                token: others[i % 9].token,
              }),
            ),
          )),
        ];
        const orders: TPayOrder[] = answers.map((a) => {
          expect(a.json().code, a.body).toBe(0);
          return a.json().data;
        });
        expect(new Set(orders.map((o) => o.crypto!.amount)).size).toBe(30);

        const paid = orders.slice(0, 10);
        const everyone = [cy, ...others];
        const totalBalance = async () =>
          (await Promise.all(everyone.map((u) => balanceFen(first.deps, u.userId)))).reduce((a, b) => a + b, 0);
        const before = await totalBalance();
        for (const order of paid) chain.send({ amount: usdtUnits(order.crypto!.amount) });
        chain.finalize();
        const instances = [first.deps, second.deps].map((deps) => ({
          deps,
          provider: usdtProviderOf(deps.payProviders.get(method))!,
        }));
        const counts = await Promise.all(
          Array.from({ length: 8 }, (_, i) => watchUsdtTransfers(instances[i % 2].deps, instances[i % 2].provider)),
        );
        expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
        expect(await totalBalance()).toBe(before + 10 * 10_000);
        expect(await first.db.db.select().from(usdtTransfers)).toHaveLength(10);
        const credits = await first.db.db.select().from(ledgerEntries).where(eq(ledgerEntries.reason, 'recharge'));
        expect(credits).toHaveLength(10);
        const statuses = await Promise.all(
          orders.map(
            async (o) => (await first.db.db.select().from(payOrders).where(eq(payOrders.id, o.order_id)))[0].status,
          ),
        );
        expect(statuses.filter((s) => s === 'success')).toHaveLength(10);
      } finally {
        await second.app.close();
        await secondDb.close();
        await first.close();
        await chain.close();
      }
    },
  );
});
