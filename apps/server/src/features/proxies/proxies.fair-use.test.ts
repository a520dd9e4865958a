import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '@proxy/contract';
import { proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres, type TTestApp } from '../../../test/helpers';
import { createAutoRenewJob } from '../../jobs/token-jobs';
import { addTestPool } from '../areas/areas-test-kit';
import { importInventory } from '../inventory/inventory.service';
import {
  balanceFen,
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from './proxies-test-kit';

const DAY = 86_400_000;

// IP-billed dynamic proxies under the operator's fair-use traffic (docs/operator-guide.md, docs/pools.md): bought or
// renewed while it is on, they get cap × days of traffic and may leave through pools; while it is off, neither.
describe('fair-use traffic of IP-billed dynamic proxies', () => {
  const start = new Date('2026-05-01T00:00:00Z').getTime();
  const clock = createFakeClock(new Date(start));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let ann: TTestUser;
  let oper: TTestUser;

  const ip = { category: 'isp', network: 'HTTP', quantity: 1, days: 2 };
  const setFairUse = async (gb: number) => {
    const res = await request(t.app, 'PUT', '/admin/system/settings', {
      token: oper.token,
      body: { ip_dynamic_fair_use_gb_per_day: gb },
    });
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { ip_dynamic_fair_use_gb_per_day: gb } });
  };
  const limitOf = async (id: number) =>
    (await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, id)))[0].trafficLimitBytes;
  const buyIp = async (body: object, user = ann) =>
    (await buyOk(t.app, user.token, '/token/variable/ip', { ...ip, ...body })).tokens[0].token_id;
  const renew = (ids: number[], days: number, user = ann) =>
    request(t.app, 'POST', '/token/variable/ip/renew', {
      token: user.token,
      body: { payway: 'balance', token_ids: ids, days },
    });
  const countries = async (query: string) =>
    (
      (await request(t.app, 'GET', `/token/list/area/countries?${query}`, { token: ann.token })).json().data as {
        id: string;
        supply: string;
        is_available: boolean;
      }[]
    ).map((a) => `${a.id}:${a.supply}:${a.is_available}`);

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { DIRECT_EXIT_COUNTRY: 'us' } });
    await seedProxyStartup(t.deps);
    await importInventory(t.deps, '10.1.0.1:3128,jp,,\n', 'residential');
    ann = await createUser(t.app, mailer, 'ann');
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    await creditFen(t.deps, ann.userId, 100_000);
    // Brazil is served by a pool only; Japan by an exit.
    await addTestPool(t.db.db, 'brazil', { coverage: [{ country: 'br', state: '', city: '' }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is off by default: no allowance, and a pool-only country is neither listed nor sold for IP-billed dynamic', async () => {
    expect((await request(t.app, 'GET', '/admin/system/settings', { token: oper.token })).json().data).toMatchObject({
      admin_totp_required: false,
      ip_dynamic_fair_use_gb_per_day: 0,
    });
    const fairUse = async () => (await request(t.app, 'GET', '/token/fair-use', { token: ann.token })).json().data;
    expect(await fairUse()).toEqual({ ip_dynamic_gb_per_day: 0 });
    const id = await buyIp({ country_id: 'jp' });
    expect(await limitOf(id)).toBeNull();
    expect(await countries('product=dynamic&billing=ip')).toEqual(['jp:exits:true', 'us:exits:true']);
    const before = await balanceFen(t.deps, ann.userId);
    const refused = await request(t.app, 'POST', '/token/variable/ip', {
      token: ann.token,
      body: { ...ip, country_id: 'br' },
    });
    expect(refused.json()).toMatchObject({ code: 3001 });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
  });

  it('on: a purchase gets cap × days, pool-only countries are listed and sold; static and traffic are unchanged', async () => {
    await setFairUse(1.5);
    // Customers read what a purchase now includes (the purchase form shows it).
    expect((await request(t.app, 'GET', '/token/fair-use', { token: ann.token })).json().data).toEqual({
      ip_dynamic_gb_per_day: 1.5,
    });
    const before = await balanceFen(t.deps, ann.userId);
    const jp = await buyIp({ country_id: 'jp', days: 3 });
    expect(await limitOf(jp)).toBe(Math.round(1.5 * 3 * BYTES_PER_GB));
    const br = await buyOk(t.app, ann.token, '/token/variable/ip', { ...ip, country_id: 'br', quantity: 2 });
    for (const token of br.tokens) expect(await limitOf(token.token_id)).toBe(3 * BYTES_PER_GB);
    // The price is the IP price: 2 yuan a day per proxy.
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 600 - 800);
    expect(await countries('product=dynamic&billing=ip')).toEqual(['br:pool:true', 'jp:exits:true', 'us:exits:true']);
    // Static IP proxies stay on exits, without an allowance.
    expect(await countries('product=static&billing=ip')).toEqual(['jp:exits:true', 'us:exits:true']);
    const staticId = (await buyOk(t.app, ann.token, '/token/static/ip', { ...ip, country_id: 'jp' })).tokens[0]
      .token_id;
    expect(await limitOf(staticId)).toBeNull();
    // A tenth of a GB a day is exact to the byte, rounded once.
    await setFairUse(0.1);
    expect(await limitOf(await buyIp({ country_id: 'jp', days: 7 }))).toBe(Math.round((7 * BYTES_PER_GB) / 10));
  });

  it('a renewal adds cap × days to a capped proxy in its transaction, leaves uncapped ones uncapped', async () => {
    await setFairUse(2);
    const capped = await buyIp({ country_id: 'br', days: 1 });
    await setFairUse(0);
    const uncapped = await buyIp({ country_id: 'jp', days: 1 });
    // Turning the setting off removes no allowance already given.
    expect(await limitOf(capped)).toBe(2 * BYTES_PER_GB);
    await setFairUse(0.5);
    const res = await renew([capped, uncapped], 4);
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { success: 2, cost: 16 } });
    expect(await limitOf(capped)).toBe(2 * BYTES_PER_GB + 2 * BYTES_PER_GB);
    expect(await limitOf(uncapped)).toBeNull();
    // A renewal refused for balance changes nothing.
    const poor = await createUser(t.app, mailer, 'poor');
    await setFairUse(1);
    const poorId = await buyIp({ country_id: 'jp', days: 1 }, poor);
    const refused = await renew([poorId], 365, poor);
    expect(refused.json().code).not.toBe(0);
    expect(await limitOf(poorId)).toBe(BYTES_PER_GB);
    // Renewed while the setting is off, a capped proxy has no cap any more (and leaves by exits only).
    await setFairUse(0);
    expect((await renew([capped], 1)).json().code).toBe(0);
    expect(await limitOf(capped)).toBeNull();
  });

  it('an auto-renewal adds cap × its period to a capped proxy', async () => {
    await setFairUse(1);
    const cy = await createUser(t.app, mailer, 'cy');
    await creditFen(t.deps, cy.userId, 10_000);
    const bought = clock.now().getTime();
    const id = await buyIp({ country_id: 'jp', days: 2, auto_renew: true }, cy);
    await setFairUse(3);
    clock.set(new Date(bought + 2 * DAY - 30 * 60_000));
    await createAutoRenewJob(t.deps).runOnce();
    const [row] = await t.db.db
      .select()
      .from(proxyTokens)
      .where(and(eq(proxyTokens.id, id), eq(proxyTokens.userId, cy.userId)));
    expect(row.expiresAt.getTime()).toBe(bought + 4 * DAY);
    expect(row.trafficLimitBytes).toBe(2 * BYTES_PER_GB + 6 * BYTES_PER_GB);
  });

  itOnPostgres('two renewals of one capped proxy at once each add their days once', async () => {
    await setFairUse(1);
    const id = await buyIp({ country_id: 'jp', days: 1 });
    const answers = await Promise.all([renew([id], 2), renew([id], 3)]);
    for (const answer of answers) expect(answer.json(), answer.body).toMatchObject({ code: 0, data: { success: 1 } });
    expect(await limitOf(id)).toBe((1 + 2 + 3) * BYTES_PER_GB);
  });
});
