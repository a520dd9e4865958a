import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { exitNodes, proxyTokens } from '@proxy/db';
import { PROXY_QUANTITY_MAX, PROXY_TRAFFIC_MAX_GB } from '@proxy/contract';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
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

describe('buying proxies', () => {
  const clock = createFakeClock(new Date('2026-03-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let alice: TTestUser;
  beforeAll(async () => {
    t = await createTestApp({
      clock,
      mailer,
      config: { DIRECT_EXIT_COUNTRY: 'us', GATEWAY_PUBLIC_HOST: 'gw.example.com', GATEWAY_PUBLIC_PORT: '7777' },
    });
    await seedProxyStartup(t.deps);
    alice = await createUser(t.app, mailer, 'alice');
  });
  afterAll(async () => {
    await t.close();
  });

  const ipBody = { category: 'isp', network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };
  const trafficBody = { category: 'isp', network: 'SOCKS5', country_id: 'us', quantity: 1, traffic_gb: 0.1 };

  it('sells a one-day static residential IP for 2 yuan, with credentials and the gateway endpoint', async () => {
    expect(await balanceFen(t.deps, alice.userId)).toBe(1500);
    const versionBefore = await readGatewayVersion(t.db.db);
    const data = await buyOk(t.app, alice.token, '/token/static/ip', { ...ipBody, remark: 'first' });
    expect(data.cost).toBe(2);
    expect(data.balance).toBe(13);
    expect(await balanceFen(t.deps, alice.userId)).toBe(1300);
    expect(data.tokens).toHaveLength(1);
    const token = data.tokens[0] as Record<string, unknown>;
    expect(token.username).toMatch(/^u[a-z0-9]{11}$/);
    expect(token.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(token).toMatchObject({
      host: 'gw.example.com',
      port: 7777,
      type: 'ip',
      product: 'static',
      network: 'HTTP',
      status: 'enabled',
      remark: 'first',
      expires_at: '2026-03-02T00:00:00.000Z',
      proxy_url: `http://${token.username}:${token.password}@gw.example.com:7777`,
      area: { country: 'us', country_name: 'United States of America' },
    });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(versionBefore);
  });

  it('sells 0.1 GB of residential traffic for 4 yuan, valid 30 days, 0.1 x 1024^3 bytes, SOCKS5 URL', async () => {
    const before = await balanceFen(t.deps, alice.userId);
    const data = await buyOk(t.app, alice.token, '/token/variable/traffic', trafficBody);
    expect(data.cost).toBe(4);
    expect(await balanceFen(t.deps, alice.userId)).toBe(before - 400);
    const token = data.tokens[0] as Record<string, unknown>;
    expect(token).toMatchObject({
      type: 'traffic',
      product: 'dynamic',
      usage: { used_bytes: 0, limit_bytes: 107374182 },
      expires_at: '2026-03-31T00:00:00.000Z',
    });
    expect(token.proxy_url).toBe(`socks5://${token.username}:${token.password}@gw.example.com:7777`);
  });

  it('charges the traffic tiers at 100 and 500 GB and data-center rates', async () => {
    await creditFen(t.deps, alice.userId, 3_000_000);
    const cases: [string, object, number][] = [
      ['/token/static/traffic', { ...trafficBody, traffic_gb: 99.9 }, 399_600],
      ['/token/static/traffic', { ...trafficBody, traffic_gb: 100 }, 380_000],
      ['/token/variable/traffic', { ...trafficBody, traffic_gb: 500 }, 1_750_000],
      // The tier is that of the whole purchase: 2 x 50 GB = 100 GB at 38 yuan.
      ['/token/variable/traffic', { ...trafficBody, traffic_gb: 50, quantity: 2 }, 380_000],
      ['/token/static/traffic', { ...trafficBody, category: 'idc', traffic_gb: 0.1 }, 100],
      ['/token/static/ip', { ...ipBody, category: 'idc', days: 31 }, 4133],
      ['/token/static/ip', { ...ipBody, days: 30 }, 6000],
      ['/token/variable/ip', { ...ipBody, days: 3, quantity: 2 }, 1200],
    ];
    for (const [path, body, fen] of cases) {
      const before = await balanceFen(t.deps, alice.userId);
      const data = await buyOk(t.app, alice.token, path, body);
      expect(data.cost, `${path} ${JSON.stringify(body)}`).toBe(fen / 100);
      expect(await balanceFen(t.deps, alice.userId)).toBe(before - fen);
    }
  });

  it('refuses dynamic data-center proxies', async () => {
    const before = await balanceFen(t.deps, alice.userId);
    for (const path of ['/token/variable/ip', '/token/variable/traffic']) {
      const res = await request(t.app, 'POST', path, {
        token: alice.token,
        body: { ...ipBody, ...trafficBody, category: 'idc' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 3002, data: { error: 'PRODUCT_NOT_OFFERED' } });
    }
    expect(await balanceFen(t.deps, alice.userId)).toBe(before);
  });

  it('answers NO_STOCK for an area without inventory and charges nothing', async () => {
    const before = await balanceFen(t.deps, alice.userId);
    const count = (await t.db.db.select().from(proxyTokens)).length;
    for (const body of [
      { ...ipBody, country_id: 'jp' },
      { ...ipBody, state_id: 'ca' },
    ]) {
      const res = await request(t.app, 'POST', '/token/static/ip', { token: alice.token, body, lang: 'en' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 3001, msg: 'No stock in the selected area' });
    }
    expect(await balanceFen(t.deps, alice.userId)).toBe(before);
    expect((await t.db.db.select().from(proxyTokens)).length).toBe(count);
  });

  it('refuses a purchase the balance does not cover and creates nothing', async () => {
    const bob = await createUser(t.app, mailer, 'bob');
    const res = await request(t.app, 'POST', '/token/static/ip', { token: bob.token, body: { ...ipBody, days: 8 } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 2001, data: { error: 'INSUFFICIENT_BALANCE' } });
    expect(await balanceFen(t.deps, bob.userId)).toBe(1500);
    const list = await request(t.app, 'GET', '/token/list/static/ip', { token: bob.token });
    expect(list.json().data.total).toBe(0);
    // The largest traffic purchase the form allows is priced too (it once answered 500), and refused the same way.
    const largest = await request(t.app, 'POST', '/token/static/traffic', {
      token: bob.token,
      body: { ...trafficBody, quantity: PROXY_QUANTITY_MAX, traffic_gb: PROXY_TRAFFIC_MAX_GB },
    });
    expect(largest.statusCode).toBe(402);
    expect(largest.json()).toMatchObject({ code: 2001, data: { error: 'INSUFFICIENT_BALANCE' } });
    expect(await balanceFen(t.deps, bob.userId)).toBe(1500);
  });

  it('answers the same tokens for the same Idempotency-Key without a second debit', async () => {
    const carol = await createUser(t.app, mailer, 'carol');
    const headers = { 'idempotency-key': 'order-1' };
    const first = await request(t.app, 'POST', '/token/static/ip', { token: carol.token, body: ipBody, headers });
    const second = await request(t.app, 'POST', '/token/static/ip', { token: carol.token, body: ipBody, headers });
    expect(first.json().code).toBe(0);
    expect(second.json().data).toEqual(first.json().data);
    expect(await balanceFen(t.deps, carol.userId)).toBe(1300);
    const third = await request(t.app, 'POST', '/token/static/ip', {
      token: carol.token,
      body: ipBody,
      headers: { 'idempotency-key': 'order-2' },
    });
    expect(third.json().data.tokens[0].token_id).not.toBe(first.json().data.tokens[0].token_id);
    expect(await balanceFen(t.deps, carol.userId)).toBe(1100);
    // The same key for a different amount is a conflict, not a purchase.
    const conflict = await request(t.app, 'POST', '/token/static/ip', {
      token: carol.token,
      body: { ...ipBody, days: 2 },
      headers,
    });
    expect(conflict.json()).toMatchObject({ code: 2002 });
    expect(await balanceFen(t.deps, carol.userId)).toBe(1100);
  });

  it('validates the purchase form (spec section 5: country required)', async () => {
    const cases: [object, string][] = [
      [{ ...ipBody, country_id: '' }, 'country_id:countryRequired'],
      [{ ...ipBody, country_id: undefined }, 'country_id:countryRequired'],
      [{ ...ipBody, quantity: 0 }, 'quantity:quantityRange'],
      [{ ...ipBody, quantity: 101 }, 'quantity:quantityRange'],
      [{ ...ipBody, days: 0 }, 'days:daysRange'],
      [{ ...ipBody, days: 366 }, 'days:daysRange'],
      [{ ...ipBody, network: 'FTP' }, 'network:invalidValue'],
      [{ ...ipBody, remark: 'x'.repeat(101) }, 'remark:tooLong'],
    ];
    for (const [body, issue] of cases) {
      const res = await request(t.app, 'POST', '/token/static/ip', { token: alice.token, body });
      expect(res.statusCode, issue).toBe(400);
      const issues = (res.json().data.issues as { path: string; message: string }[]).map(
        (i) => `${i.path}:${i.message}`,
      );
      expect(issues.some((i) => i.startsWith(issue.split(':')[0]))).toBe(true);
    }
    for (const traffic_gb of [0.05, 0.15, 'x']) {
      const res = await request(t.app, 'POST', '/token/static/traffic', {
        token: alice.token,
        body: { ...trafficBody, traffic_gb },
      });
      expect(res.statusCode).toBe(400);
    }
    expect((await request(t.app, 'POST', '/token/static/ip', { body: ipBody })).statusCode).toBe(401);
  });

  it('claims an imported upstream node exclusively for a static IP, and the shared direct node when none is free', async () => {
    await importInventory(t.deps, 'socks5://10.0.0.1:1080:u:p,de,be,berlin\n', 'residential');
    const dave = await createUser(t.app, mailer, 'dave');
    const body = { ...ipBody, country_id: 'de', state_id: 'be', city_id: 'berlin' };
    const first = await buyOk(t.app, dave.token, '/token/static/ip', body);
    expect(first.tokens).toHaveLength(1);
    // The only node of the area is held now, and Berlin has no direct node.
    const second = await request(t.app, 'POST', '/token/static/ip', { token: dave.token, body });
    expect(second.json()).toMatchObject({ code: 3001 });
    // A dynamic token rotates among the area's nodes: held ones too.
    await buyOk(t.app, dave.token, '/token/variable/ip', body);
    const areas = await request(t.app, 'GET', '/token/list/area/countries', { token: dave.token });
    expect(areas.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'de', available: 0 }),
        expect.objectContaining({ id: 'us', available: 1 }),
      ]),
    );
  });

  itOnPostgres('concurrent purchases never claim the same upstream node, and a repeated key debits once', async () => {
    await importInventory(t.deps, '10.5.0.1:3128,it,,\n10.5.0.2:3128,it,,\n10.5.0.3:3128,it,,\n', 'residential');
    const buyers = await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((name) => createUser(t.app, mailer, name)),
    );
    const body = { ...ipBody, country_id: 'it' };
    const answers = await Promise.all(
      buyers.map((b) => request(t.app, 'POST', '/token/static/ip', { token: b.token, body })),
    );
    const codes = answers.map((a) => a.json().code).sort();
    expect(codes).toEqual([0, 0, 0, 3001, 3001, 3001]);
    const nodes = await t.db.db.select().from(exitNodes).where(eq(exitNodes.country, 'it'));
    const holders = nodes.map((n) => n.holderTokenId);
    expect(new Set(holders).size).toBe(3);
    expect(holders).not.toContain(null);
    for (const [i, b] of buyers.entries()) {
      expect(await balanceFen(t.deps, b.userId)).toBe(answers[i].json().code === 0 ? 1300 : 1500);
    }
    const headers = { 'idempotency-key': 'same-twice' };
    const twins = await Promise.all(
      [0, 1, 2].map(() =>
        request(t.app, 'POST', '/token/static/ip', { token: buyers[0].token, body: ipBody, headers }),
      ),
    );
    expect(new Set(twins.map((r) => r.json().data.tokens[0].token_id)).size).toBe(1);
    expect(await balanceFen(t.deps, buyers[0].userId)).toBe(answers[0].json().code === 0 ? 1100 : 1300);
  });

  it('answers the price catalogue', async () => {
    const res = await request(t.app, 'GET', '/token/prices', { token: alice.token });
    expect(res.json().data).toMatchObject({
      residential_traffic_tier0_fen: 4000,
      static_ip_day_fen: 200,
      idc_ip_month_fen: 4000,
    });
  });
});
