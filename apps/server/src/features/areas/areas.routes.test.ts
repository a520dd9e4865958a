import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayInstances, pools } from '@proxy/db';
import { ISO_COUNTRY_CODES, type TArea } from '@proxy/contract';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { importInventory } from '../inventory/inventory.service';
import { createUser, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';
import { addTestPool, reportPoolHealth, type TTestPool } from './areas-test-kit';
import { POOL_HEALTH_FRESH_MS } from '@proxy/contract';

// The areas a customer can pick: the exits' areas, and for a dynamic traffic product those enabled pools serve,
// each with whether it can be bought now (docs/pools.md, "What customers see").
describe('areas of exits and upstream pools', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let ann: TTestUser;

  const addPool = (name: string, over: TTestPool = {}) => addTestPool(t.db.db, name, over);
  // One gateway process's report on a pool.
  const report = (poolId: number, state: Parameters<typeof reportPoolHealth>[3] = {}) =>
    reportPoolHealth(t.db.db, poolId, clock.now(), state);
  const inFuture = () => new Date(clock.now().getTime() + 30_000);
  const list = async (path: string, query: Record<string, string>, lang = 'en') => {
    const res = await request(t.app, 'GET', `${path}?${new URLSearchParams(query).toString()}`, {
      token: ann.token,
      lang,
    });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as TArea[];
  };
  const countries = (query: Record<string, string> = {}) => list('/token/list/area/countries', query);
  const dynamicTraffic = { product: 'dynamic', billing: 'traffic' };
  const byId = (areas: TArea[]) => new Map(areas.map((a) => [a.id, a]));

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { DIRECT_EXIT_COUNTRY: 'us' } });
    await seedProxyStartup(t.deps);
    // Japan: one free upstream node; Germany (Berlin): one, held below by nobody; the US: the direct nodes.
    await importInventory(t.deps, '10.1.0.1:3128,jp,,\n10.1.0.2:3128,de,be,berlin\n', 'residential');
    ann = await createUser(t.app, mailer, 'ann');
  });
  beforeEach(async () => {
    await t.db.db.delete(pools);
    await t.db.db.delete(gatewayInstances);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the exits alone, as before, when no product is asked or the product is static or IP-billed', async () => {
    await addPool('everywhere');
    expect(await countries()).toEqual([
      { id: 'de', name: 'Germany', name_zh: '德国', name_en: 'Germany', available: 1 },
      { id: 'jp', name: 'Japan', name_zh: '日本', name_en: 'Japan', available: 1 },
      {
        id: 'us',
        name: 'United States of America',
        name_zh: '美国',
        name_en: 'United States of America',
        available: 1,
      },
    ]);
    const staticIp = await countries({ product: 'static', billing: 'ip' });
    expect(staticIp.map((a) => [a.id, a.supply, a.is_available])).toEqual([
      ['de', 'exits', true],
      ['jp', 'exits', true],
      ['us', 'exits', true],
    ]);
    const dynamicIp = await countries({ product: 'dynamic', billing: 'ip' });
    expect(dynamicIp.map((a) => a.id)).toEqual(['de', 'jp', 'us']);
    // The v1 API answers the same lists with the same parameters.
    const v1 = await request(t.app, 'GET', '/v1/areas/countries', { token: ann.token });
    expect(v1.json().data).toEqual(await countries());
  });

  it("adds every country of a pool serving all, next to the exits' counts", async () => {
    await addPool('everywhere');
    const areas = await countries(dynamicTraffic);
    expect(areas.map((a) => a.id)).toEqual([...ISO_COUNTRY_CODES].sort());
    const found = byId(areas);
    expect(found.get('us')).toEqual({
      id: 'us',
      name: 'United States of America',
      name_zh: '美国',
      name_en: 'United States of America',
      available: 1,
      supply: 'both',
      is_available: true,
    });
    expect(found.get('br')).toMatchObject({ name_en: 'Brazil', available: 0, supply: 'pool', is_available: true });
    // States of a pool serving a whole country are not known: the exits' states are listed, served by both.
    const states = await list('/token/list/area/state', { ...dynamicTraffic, country_id: 'de' });
    expect(states).toEqual([
      {
        id: 'be',
        name: 'Berlin',
        name_zh: 'Berlin',
        name_en: 'Berlin',
        available: 1,
        supply: 'both',
        is_available: true,
      },
    ]);
    expect(await list('/token/list/area/state', { ...dynamicTraffic, country_id: 'br' })).toEqual([]);
    // The customer API takes the same product parameters.
    const v1 = await request(t.app, 'GET', '/v1/areas/countries?product=dynamic&billing=traffic', { token: ann.token });
    expect(v1.json().data).toEqual(areas);
  });

  it("adds a listed pool's countries, states and cities, and ignores paused pools", async () => {
    await addPool('listed', {
      coverage: [
        { country: 'fr', state: '', city: '' },
        { country: 'gb', state: 'england', city: '' },
        { country: 'gb', state: 'england', city: 'london' },
        { country: 'gb', state: 'scotland', city: 'glasgow' },
      ],
    });
    await addPool('paused', { status: 'paused' });
    await addPool('paused list', { status: 'paused', coverage: [{ country: 'it', state: '', city: '' }] });
    const areas = await countries(dynamicTraffic);
    expect(areas.map((a) => [a.id, a.supply, a.available])).toEqual([
      ['de', 'exits', 1],
      ['fr', 'pool', 0],
      ['gb', 'pool', 0],
      ['jp', 'exits', 1],
      ['us', 'exits', 1],
    ]);
    const states = await list('/token/list/area/state', { ...dynamicTraffic, country_id: 'gb' }, 'zh');
    expect(states).toEqual([
      {
        id: 'england',
        name: 'England',
        name_zh: 'England',
        name_en: 'England',
        available: 0,
        supply: 'pool',
        is_available: true,
      },
      {
        id: 'scotland',
        name: 'Scotland',
        name_zh: 'Scotland',
        name_en: 'Scotland',
        available: 0,
        supply: 'pool',
        is_available: true,
      },
    ]);
    const cities = await list('/token/list/area/city', { ...dynamicTraffic, country_id: 'gb', state_id: 'england' });
    expect(cities.map((a) => [a.id, a.name_en, a.supply])).toEqual([['london', 'London', 'pool']]);
    // A country the pool serves whole has no states of its own to list.
    expect(await list('/token/list/area/state', { ...dynamicTraffic, country_id: 'fr' })).toEqual([]);
  });

  it('offers a data-center pool to data-center products only', async () => {
    await addPool('dc', { kind: 'datacenter', coverage: [{ country: 'nl', state: '', city: '' }] });
    expect((await countries(dynamicTraffic)).map((a) => a.id)).toEqual(['de', 'jp', 'us']);
    const idc = await countries({ ...dynamicTraffic, category: 'idc' });
    expect(idc.map((a) => [a.id, a.supply])).toEqual([
      ['nl', 'pool'],
      ['us', 'exits'],
    ]);
  });

  it("says a pool-served area is unavailable while most gateways' fresh reports have its circuit open", async () => {
    const poolId = await addPool('listed', {
      coverage: [
        { country: 'fr', state: '', city: '' },
        { country: 'br', state: '', city: '' },
      ],
    });
    const availability = async () =>
      Object.fromEntries((await countries(dynamicTraffic)).map((a) => [a.id, a.is_available]));
    // No report at all: unknown, offered.
    expect(await availability()).toMatchObject({ fr: true, br: true });
    // One of three open: still served by the others.
    await report(poolId, { openUntil: inFuture() });
    await report(poolId);
    await report(poolId);
    expect(await availability()).toMatchObject({ fr: true, br: true });
    // Two of four (half, not most): served.
    await report(poolId, { openAreas: ['fr'] });
    expect(await availability()).toMatchObject({ fr: true, br: true });
    // France open on three of five: down there; Brazil open on one (the whole pool) of five: served.
    await report(poolId, { openAreas: ['fr', 'de'] });
    expect(await availability()).toMatchObject({ fr: false, br: true });
    // The exits' areas do not depend on the pool.
    expect(await availability()).toMatchObject({ jp: true, us: true });
  });

  it('reads only reports of the last minute, and a circuit whose time has passed as closed', async () => {
    const poolId = await addPool('listed', { coverage: [{ country: 'fr', state: '', city: '' }] });
    const fr = async () => byId(await countries(dynamicTraffic)).get('fr')?.is_available;
    // Stale reports, all open: nothing known now, offered.
    await report(poolId, { openUntil: inFuture(), ageMs: POOL_HEALTH_FRESH_MS + 1_000 });
    await report(poolId, { openAreas: ['fr'], ageMs: POOL_HEALTH_FRESH_MS + 1_000 });
    expect(await fr()).toBe(true);
    // One fresh report, open for 30 s: the only word on the pool now.
    await report(poolId, { openUntil: inFuture() });
    expect(await fr()).toBe(false);
    // Its circuit's time passes (the report still fresh): closed again.
    clock.advance(31_000);
    expect(await fr()).toBe(true);
    // A second healthy pool keeps the area available while the first is down there.
    await report(poolId, { openAreas: ['fr'] });
    await report(poolId, { openAreas: ['fr'] });
    expect(await fr()).toBe(false);
    await addPool('second', { coverage: [{ country: 'fr', state: '', city: '' }] });
    expect(await fr()).toBe(true);
  });

  it('refuses a bad product or billing with the reason in zh and en', async () => {
    const zh = await request(t.app, 'GET', '/token/list/area/countries?product=monthly', {
      token: ann.token,
      lang: 'zh',
    });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().data.issues).toEqual([{ path: 'product', message: expect.any(String) }]);
    const en = await request(t.app, 'GET', '/v1/areas/countries?billing=gb', { token: ann.token, lang: 'en' });
    expect(en.json().data.issues).toEqual([{ path: 'billing', message: 'Invalid value' }]);
  });
});
