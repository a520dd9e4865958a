import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, proxyOrders, proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { addTestPool, reportPoolHealth } from '../areas/areas-test-kit';
import { importInventory } from '../inventory/inventory.service';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from './proxies-test-kit';

// A dynamic traffic proxy bought in an area only upstream pools serve (docs/pools.md, "What customers see").
describe('buying dynamic proxies in areas upstream pools serve', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let ann: TTestUser;
  let poolId: number;

  const traffic = { category: 'isp', network: 'HTTP', quantity: 1, traffic_gb: 0.1 };
  const buy = (path: string, body: object, lang = 'en') =>
    request(t.app, 'POST', path, { token: ann.token, body, lang });
  const purchases = async () =>
    (
      await t.db.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, ann.userId), eq(ledgerEntries.reason, 'purchase')))
    ).length;
  const ownRows = async () => ({
    tokens: (await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.userId, ann.userId))).length,
    orders: (await t.db.db.select().from(proxyOrders).where(eq(proxyOrders.userId, ann.userId))).length,
  });

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { DIRECT_EXIT_COUNTRY: 'us' } });
    await seedProxyStartup(t.deps);
    await importInventory(t.deps, '10.1.0.1:3128,jp,,\n', 'residential');
    ann = await createUser(t.app, mailer, 'ann');
    await creditFen(t.deps, ann.userId, 10_000);
    // Brazil (São Paulo state only in the list) and Japan, where an exit serves too.
    poolId = await addTestPool(t.db.db, 'listed', {
      coverage: [
        { country: 'br', state: '', city: '' },
        { country: 'mx', state: 'jalisco', city: '' },
        { country: 'jp', state: '', city: '' },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sells a dynamic traffic proxy in a country only a pool serves, debiting once', async () => {
    const before = await balanceFen(t.deps, ann.userId);
    const rowsBefore = await ownRows();
    const entriesBefore = await purchases();
    const data = await buyOk(t.app, ann.token, '/token/variable/traffic', { ...traffic, country_id: 'br' });
    expect(data.tokens).toHaveLength(1);
    expect(data.tokens[0]).toMatchObject({ product: 'dynamic', type: 'traffic', area: { country: 'br' } });
    expect(data.cost).toBe(4);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 400);
    expect(await purchases()).toBe(entriesBefore + 1);
    expect(await ownRows()).toEqual({ tokens: rowsBefore.tokens + 1, orders: rowsBefore.orders + 1 });
    // A state the list names is served; a state of a country listed whole too.
    await buyOk(t.app, ann.token, '/token/variable/traffic', { ...traffic, country_id: 'mx', state_id: 'jalisco' });
    await buyOk(t.app, ann.token, '/token/variable/traffic', { ...traffic, country_id: 'br', state_id: 'sp' });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 1200);
  });

  it('refuses with NO_STOCK an area neither exits nor pools serve, and products pools do not carry', async () => {
    const before = await balanceFen(t.deps, ann.userId);
    const rowsBefore = await ownRows();
    const refused = [
      ['/token/variable/traffic', { ...traffic, country_id: 'fr' }],
      // The list serves Jalisco, not "any state of Mexico".
      ['/token/variable/traffic', { ...traffic, country_id: 'mx' }],
      // Pools carry traffic-billed dynamic proxies only.
      ['/token/variable/ip', { ...traffic, country_id: 'br', days: 1 }],
      ['/token/static/traffic', { ...traffic, country_id: 'br' }],
      ['/token/static/ip', { ...traffic, country_id: 'br', days: 1 }],
    ] as const;
    for (const [path, body] of refused) {
      const res = await buy(path, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(409);
      expect(res.json()).toMatchObject({ code: 3001, msg: 'No stock in the selected area' });
    }
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await ownRows()).toEqual(rowsBefore);
  });

  it('refuses a pool-only area while its pools are down there, in zh and en, and moves no money', async () => {
    // Two of three gateways have the pool's circuit open for Brazil and Japan (one for the whole pool).
    await reportPoolHealth(t.db.db, poolId, clock.now(), { openAreas: ['br', 'jp'] });
    await reportPoolHealth(t.db.db, poolId, clock.now(), { openUntil: new Date(clock.now().getTime() + 60_000) });
    await reportPoolHealth(t.db.db, poolId, clock.now());
    const before = await balanceFen(t.deps, ann.userId);
    const rowsBefore = await ownRows();
    const entriesBefore = await purchases();
    const en = await buy('/token/variable/traffic', { ...traffic, country_id: 'br' });
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      code: 3004,
      msg: 'The selected area is temporarily unavailable; try again later or choose another area',
      data: { error: 'AREA_UNAVAILABLE' },
    });
    const zh = await buy('/token/variable/traffic', { ...traffic, country_id: 'br', state_id: 'sp' }, 'zh');
    expect(zh.json()).toMatchObject({ code: 3004, msg: '所选地区暂时不可用，请稍后再试或选择其他地区' });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
    expect(await purchases()).toBe(entriesBefore);
    expect(await ownRows()).toEqual(rowsBefore);
    // The pool is as down in Japan, but an exit serves it there.
    await buyOk(t.app, ann.token, '/token/variable/traffic', { ...traffic, country_id: 'jp' });
    // The area list says the same as the purchase.
    const areas = await request(t.app, 'GET', '/token/list/area/countries?product=dynamic&billing=traffic', {
      token: ann.token,
    });
    expect((areas.json().data as { id: string; is_available: boolean }[]).map((a) => [a.id, a.is_available])).toEqual([
      ['br', false],
      ['jp', true],
      // Open on one gateway of three (the whole pool's circuit): served.
      ['mx', true],
      ['us', true],
    ]);
  });
});
