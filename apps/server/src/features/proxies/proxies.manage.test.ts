import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes, proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { importInventory } from '../inventory/inventory.service';
import { expireNextToken } from './proxies-lifecycle.service';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from './proxies-test-kit';

const DAY = 24 * 60 * 60 * 1000;

describe('managing proxies', () => {
  const clock = createFakeClock(new Date('2026-04-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  // Ann's tokens by product.
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { GATEWAY_PUBLIC_HOST: 'gw.test', GATEWAY_PUBLIC_PORT: '7000' } });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 100_000);
    const base = { network: 'HTTP', country_id: 'us', quantity: 1 };
    ids.staticTraffic = (
      await buyOk(t.app, ann.token, '/token/static/traffic', { ...base, traffic_gb: 1, remark: 'scraper one' })
    ).tokens[0].token_id;
    clock.advance(1000);
    ids.staticIp = (
      await buyOk(t.app, ann.token, '/token/static/ip', { ...base, days: 1, remark: 'shop' })
    ).tokens[0].token_id;
    clock.advance(1000);
    ids.variableTraffic = (
      await buyOk(t.app, ann.token, '/token/variable/traffic', { ...base, network: 'SOCKS5', traffic_gb: 1 })
    ).tokens[0].token_id;
    clock.advance(1000);
    ids.variableIp = (await buyOk(t.app, ann.token, '/token/variable/ip', { ...base, days: 2 })).tokens[0].token_id;
    clock.advance(1000);
    ids.idcIp = (
      await buyOk(t.app, ann.token, '/token/static/ip', { ...base, category: 'idc', days: 30 })
    ).tokens[0].token_id;
    clock.advance(1000);
    ids.idcTraffic = (
      await buyOk(t.app, ann.token, '/token/static/traffic', { ...base, category: 'idc', traffic_gb: 2 })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function listIds(path: string, token = ann.token): Promise<number[]> {
    const res = await request(t.app, 'GET', path, { token });
    expect(res.json().code, res.body).toBe(0);
    return (res.json().data.records as { token_id: number }[]).map((r) => r.token_id).sort((a, b) => a - b);
  }

  it('puts each token in its lists (ARCHITECTURE.md membership)', async () => {
    const sorted = (...xs: number[]) => xs.sort((a, b) => a - b);
    expect(await listIds('/token/list/static/traffic')).toEqual([ids.staticTraffic]);
    expect(await listIds('/token/list/static/ip')).toEqual([ids.staticIp]);
    expect(await listIds('/token/list/variable/traffic')).toEqual([ids.variableTraffic]);
    expect(await listIds('/token/list/variable/ip')).toEqual([ids.variableIp]);
    expect(await listIds('/token/list/isp/static')).toEqual(sorted(ids.staticTraffic, ids.staticIp));
    expect(await listIds('/token/list/isp/dynamic')).toEqual(sorted(ids.variableTraffic, ids.variableIp));
    expect(await listIds('/token/list/idc/static')).toEqual(sorted(ids.idcIp, ids.idcTraffic));
    expect(await listIds('/token/list/isp/static', ben.token)).toEqual([]);
  });

  it('shows the fields of spec section 3', async () => {
    const res = await request(t.app, 'GET', '/token/list/static/traffic', { token: ann.token, lang: 'zh' });
    const record = res.json().data.records[0];
    expect(record).toMatchObject({
      token_id: ids.staticTraffic,
      remark: 'scraper one',
      type: 'traffic',
      network: 'HTTP',
      area: { country: 'us', state: '', city: '', country_name: '美国' },
      usage: { used_bytes: 0, limit_bytes: 1024 ** 3 },
      created_at: '2026-04-01T00:00:00.000Z',
      expires_at: '2026-05-01T00:00:00.000Z',
      status: 'enabled',
      auto_renew: false,
      host: 'gw.test',
      port: 7000,
    });
    expect(record.proxy_url).toBe(`http://${record.username}:${record.password}@gw.test:7000`);
  });

  it('pages and filters by status, country, keyword, created and expiry ranges', async () => {
    const page1 = (
      await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=1', { token: ann.token })
    ).json().data;
    expect(page1).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page1.records[0].token_id).toBe(ids.staticIp);
    const page2 = (
      await request(t.app, 'GET', '/token/list/isp/static?page=2&page_size=1', { token: ann.token })
    ).json().data;
    expect(page2.records[0].token_id).toBe(ids.staticTraffic);

    expect(await listIds('/token/list/isp/static?keyword=SCRAPER')).toEqual([ids.staticTraffic]);
    const username = (await request(t.app, 'GET', '/token/list/static/ip', { token: ann.token })).json().data.records[0]
      .username as string;
    expect(await listIds(`/token/list/isp/static?keyword=${username.slice(0, 6)}`)).toEqual([ids.staticIp]);
    expect(await listIds('/token/list/isp/static?keyword=%25')).toEqual([]);
    expect(await listIds('/token/list/isp/static?country=jp')).toEqual([]);
    expect(await listIds('/token/list/isp/static?country=us')).toHaveLength(2);
    expect(await listIds('/token/list/isp/static?created_from=2026-04-01T00:00:00.500Z')).toEqual([ids.staticIp]);
    expect(await listIds('/token/list/isp/static?created_to=2026-04-01T00:00:00.500Z')).toEqual([ids.staticTraffic]);
    expect(await listIds('/token/list/isp/static?expires_to=2026-04-10T00:00:00Z')).toEqual([ids.staticIp]);
    expect(await listIds('/token/list/isp/static?expires_from=2026-04-10T00:00:00Z')).toEqual([ids.staticTraffic]);
    expect(await listIds('/token/list/isp/static?status=disabled')).toEqual([]);
    expect(await listIds('/token/list/isp/static?status=enabled')).toHaveLength(2);
    expect((await request(t.app, 'GET', '/token/list/isp/static?status=nope', { token: ann.token })).statusCode).toBe(
      400,
    );
    expect((await request(t.app, 'GET', '/token/list/isp/static')).statusCode).toBe(401);
  });

  it('disables and enables a token and bumps the gateway version; another user gets 404', async () => {
    const before = await readGatewayVersion(t.db.db);
    const off = await request(t.app, 'PUT', `/token/${ids.staticIp}`, {
      token: ann.token,
      body: { status: 'disabled' },
    });
    expect(off.json()).toMatchObject({ code: 0, data: { status: 'disabled' } });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(before);
    expect(await listIds('/token/list/isp/static?status=disabled')).toEqual([ids.staticIp]);
    const on = await request(t.app, 'PUT', `/token/${ids.staticIp}`, { token: ann.token, body: { status: 'enabled' } });
    expect(on.json().data.status).toBe('enabled');
    const foreign = await request(t.app, 'PUT', `/token/${ids.staticIp}`, {
      token: ben.token,
      body: { status: 'disabled' },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await request(t.app, 'PUT', `/token/${ids.staticIp}`, {
      token: ann.token,
      body: { status: 'deleted' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('resets the password (new password, version bumped); another user gets 404', async () => {
    const before = (await request(t.app, 'GET', '/token/list/static/ip', { token: ann.token })).json().data.records[0];
    const version = await readGatewayVersion(t.db.db);
    const res = await request(t.app, 'PUT', `/token/reset/${ids.staticIp}`, { token: ann.token });
    expect(res.json().code).toBe(0);
    expect(res.json().data.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(res.json().data.password).not.toBe(before.password);
    expect(res.json().data.username).toBe(before.username);
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect((await request(t.app, 'PUT', `/token/reset/${ids.staticIp}`, { token: ben.token })).statusCode).toBe(404);
  });

  it('edits the remark (at most 100 characters); another user gets 404', async () => {
    const res = await request(t.app, 'PUT', `/token/remark/${ids.variableIp}`, {
      token: ann.token,
      body: { token_id: ids.variableIp, remark: 'new remark' },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { remark: 'new remark' } });
    expect(await listIds('/token/list/isp/dynamic?keyword=new%20remark')).toEqual([ids.variableIp]);
    const long = await request(t.app, 'PUT', `/token/remark/${ids.variableIp}`, {
      token: ann.token,
      body: { token_id: ids.variableIp, remark: 'x'.repeat(101) },
    });
    expect(long.statusCode).toBe(400);
    const foreign = await request(t.app, 'PUT', `/token/remark/${ids.variableIp}`, {
      token: ben.token,
      body: { token_id: ids.variableIp, remark: 'mine' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('exports the line formats as txt and csv, by ids or by list filters', async () => {
    const row = (await request(t.app, 'GET', '/token/list/static/ip', { token: ann.token })).json().data.records[0];
    const { username: u, password: p } = row;
    const formats: [string, string][] = [
      ['', `gw.test:7000:${u}:${p}`],
      ['&line=hpup', `gw.test:7000:${u}:${p}`],
      ['&line=upahp', `${u}:${p}@gw.test:7000`],
      ['&line=http', `http://${u}:${p}@gw.test:7000`],
      // An HTTP proxy is written as http:// even when socks5 is asked: the gateway would refuse SOCKS5 for it.
      ['&line=socks5', `http://${u}:${p}@gw.test:7000`],
    ];
    for (const [query, line] of formats) {
      const res = await request(t.app, 'GET', `/token/export?token_ids=${ids.staticIp}${query}`, { token: ann.token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toBe(`${line}\n`);
    }
    const csv = await request(
      t.app,
      'GET',
      `/token/export?token_ids=${ids.staticIp},${ids.variableIp}&format=csv&line=upahp`,
      { token: ann.token },
    );
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'token_id,line,host,port,username,password,network,type,country,state,city,status,expires_at,remark',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${u}:${p}@gw.test:7000,gw.test,7000,${u},${p},HTTP,ip,us`);
    const byList = await request(t.app, 'GET', '/token/export?list=idc/static', { token: ann.token });
    expect(byList.body.trim().split('\n')).toHaveLength(2);
    const all = await request(t.app, 'GET', '/token/export', { token: ann.token });
    expect(all.body.trim().split('\n')).toHaveLength(6);
    const filtered = await request(t.app, 'GET', '/token/export?list=isp/static&keyword=shop', { token: ann.token });
    expect(filtered.body).toBe(`gw.test:7000:${u}:${p}\n`);
    // Another user's ids export nothing.
    const foreign = await request(t.app, 'GET', `/token/export?token_ids=${ids.staticIp}`, { token: ben.token });
    expect(foreign.body).toBe('');
    expect((await request(t.app, 'GET', '/token/export?line=ftp', { token: ann.token })).statusCode).toBe(400);
  });

  it("writes each proxy's URL line in the proxy's own protocol, in txt and csv", async () => {
    const all = (await request(t.app, 'GET', '/token/list/isp/dynamic', { token: ann.token })).json().data.records as {
      token_id: number;
      network: string;
      username: string;
    }[];
    // The dynamic list holds a SOCKS5 proxy (variableTraffic) and an HTTP one (variableIp).
    expect(new Set(all.map((r) => r.network))).toEqual(new Set(['HTTP', 'SOCKS5']));
    const schemeOf = { HTTP: 'http', SOCKS5: 'socks5' } as Record<string, string>;
    for (const line of ['http', 'socks5']) {
      for (const scope of ['list=isp/dynamic', `token_ids=${all.map((r) => r.token_id).join(',')}`]) {
        const txt = await request(t.app, 'GET', `/token/export?${scope}&line=${line}`, { token: ann.token });
        const lines = txt.body.trim().split('\n');
        expect(lines).toHaveLength(all.length);
        for (const record of all) {
          const written = lines.find((l) => l.includes(`//${record.username}:`));
          expect(written, `${line} ${scope} ${record.username}`).toBeDefined();
          expect(new URL(written!).protocol).toBe(`${schemeOf[record.network]}:`);
        }
        const csv = await request(t.app, 'GET', `/token/export?${scope}&line=${line}&format=csv`, { token: ann.token });
        const rows = csv.body.trim().split('\r\n').slice(1);
        expect(rows).toHaveLength(all.length);
        for (const row of rows) {
          const [, url, , , , , network] = row.split(',');
          expect(new URL(url).protocol).toBe(`${schemeOf[network]}:`);
        }
      }
    }
  });

  it('lists the balance as the only payment option', async () => {
    const res = await request(t.app, 'GET', '/token/payway/list', { token: ann.token, lang: 'en' });
    expect(res.json().data).toEqual([
      {
        id: 'balance',
        name: 'Balance',
        name_zh: '余额支付',
        name_en: 'Balance',
        balance: (await balanceFen(t.deps, ann.userId)) / 100,
      },
    ]);
  });

  it('renews IP tokens from the balance, extending from the expiry; traffic and foreign ids fail', async () => {
    const before = await balanceFen(t.deps, ann.userId);
    const res = await request(t.app, 'POST', '/token/ip/renew', {
      token: ann.token,
      body: {
        token_ids: [ids.staticIp, ids.idcIp, ids.staticTraffic, ids.variableIp, 999_999],
        days: 3,
        payway: 'balance',
      },
    });
    // Static residential 3 days = 6 yuan; data-center 3 days = 4 yuan.
    expect(res.json().data).toEqual({ success: 2, failed: 3, total: 5, cost: 10, balance: (before - 1000) / 100 });
    expect(await balanceFen(t.deps, ann.userId)).toBe(before - 1000);
    const row = (await request(t.app, 'GET', '/token/list/static/ip', { token: ann.token })).json().data.records[0];
    expect(row.expires_at).toBe(new Date(Date.parse('2026-04-01T00:00:01Z') + 4 * DAY).toISOString());
    const dyn = await request(t.app, 'POST', '/token/variable/ip/renew', {
      token: ann.token,
      body: { token_ids: [ids.variableIp], days: 1, payway: 'balance' },
    });
    expect(dyn.json().data).toMatchObject({ success: 1, failed: 0, cost: 2 });
    const noPayway = await request(t.app, 'POST', '/token/ip/renew', {
      token: ann.token,
      body: { token_ids: [ids.staticIp], days: 1 },
    });
    expect(noPayway.statusCode).toBe(400);
    expect(noPayway.json().data.issues[0]).toMatchObject({ path: 'payway' });
    const foreign = await request(t.app, 'POST', '/token/ip/renew', {
      token: ben.token,
      body: { token_ids: [ids.staticIp], days: 1, payway: 'balance' },
    });
    expect(foreign.json().data).toMatchObject({ success: 0, failed: 1, total: 1 });
    expect(await balanceFen(t.deps, ben.userId)).toBe(1500);
  });

  it('refuses a renewal the balance does not cover and changes nothing', async () => {
    const cy = await createUser(t.app, mailer, 'cy');
    const id = (
      await buyOk(t.app, cy.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 7 })
    ).tokens[0].token_id;
    const res = await request(t.app, 'POST', '/token/ip/renew', {
      token: cy.token,
      body: { token_ids: [id], days: 1, payway: 'balance' },
    });
    expect(res.json()).toMatchObject({ code: 2001 });
    expect(await balanceFen(t.deps, cy.userId)).toBe(100);
  });

  it('renews an expired static IP whose node was released by re-claiming one, or answers NO_STOCK', async () => {
    const dee = await createUser(t.app, mailer, 'dee');
    await importInventory(t.deps, 'http://10.9.0.1:3128,fr,idf,paris\n', 'residential');
    const id = (
      await buyOk(t.app, dee.token, '/token/static/ip', { network: 'HTTP', country_id: 'fr', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    clock.advance(2 * DAY);
    while (await expireNextToken(t.deps));
    await signIn(t.app, ann, ben, dee);
    const [node] = await t.db.db.select().from(exitNodes).where(eq(exitNodes.host, '10.9.0.1'));
    expect(node.holderTokenId).toBeNull();
    // Someone else takes the node: renewal finds no stock.
    const eve = await createUser(t.app, mailer, 'eve');
    const other = (
      await buyOk(t.app, eve.token, '/token/static/ip', { network: 'HTTP', country_id: 'fr', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    const failed = await request(t.app, 'POST', '/token/ip/renew', {
      token: dee.token,
      body: { token_ids: [id], days: 1, payway: 'balance' },
    });
    expect(failed.json()).toMatchObject({ code: 3001 });
    expect(await balanceFen(t.deps, dee.userId)).toBe(1300);
    // Eve's token expires; Dee's renewal re-claims the node and the token is enabled again.
    clock.advance(2 * DAY);
    while (await expireNextToken(t.deps));
    await signIn(t.app, ann, ben, dee);
    const ok = await request(t.app, 'POST', '/token/ip/renew', {
      token: dee.token,
      body: { token_ids: [id], days: 1, payway: 'balance' },
    });
    expect(ok.json().data).toMatchObject({ success: 1, cost: 2 });
    const [mine] = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, id));
    expect(mine).toMatchObject({
      status: 'enabled',
      exitNodeId: node.id,
      expiresAt: new Date(clock.now().getTime() + DAY),
    });
    const [held] = await t.db.db.select().from(exitNodes).where(eq(exitNodes.id, node.id));
    expect(held.holderTokenId).toBe(id);
    expect(other).not.toBe(id);
  });

  it('switches auto-renew for IP tokens of the product; others count as failed', async () => {
    const res = await request(t.app, 'POST', '/token/ip/auto/renew', {
      token: ann.token,
      body: { token_ids: [ids.staticIp, ids.idcIp, ids.staticTraffic, ids.variableIp], auto_renew: true },
    });
    expect(res.json().data).toEqual({ success: 2, failed: 2, total: 4 });
    const row = (await request(t.app, 'GET', '/token/list/static/ip', { token: ann.token })).json().data.records[0];
    expect(row.auto_renew).toBe(true);
    const dyn = await request(t.app, 'POST', '/token/variable/ip/auto/renew', {
      token: ann.token,
      body: { token_ids: [ids.variableIp], auto_renew: false },
    });
    expect(dyn.json().data).toEqual({ success: 1, failed: 0, total: 1 });
    const foreign = await request(t.app, 'POST', '/token/ip/auto/renew', {
      token: ben.token,
      body: { token_ids: [ids.staticIp], auto_renew: false },
    });
    expect(foreign.json().data).toEqual({ success: 0, failed: 1, total: 1 });
  });

  it('deletes and restores, one and in batches; deleted tokens show only with status=deleted', async () => {
    const version = await readGatewayVersion(t.db.db);
    const del = await request(t.app, 'DELETE', `/token/${ids.variableTraffic}`, { token: ann.token });
    expect(del.json()).toMatchObject({ code: 0 });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(await listIds('/token/list/isp/dynamic')).toEqual([ids.variableIp]);
    expect(await listIds('/token/list/isp/dynamic?status=deleted')).toEqual([ids.variableTraffic]);
    const row = (await request(t.app, 'GET', '/token/list/isp/dynamic?status=deleted', { token: ann.token })).json()
      .data.records[0];
    expect(row.status).toBe('deleted');
    expect((await request(t.app, 'DELETE', `/token/${ids.variableTraffic}`, { token: ann.token })).statusCode).toBe(
      404,
    );
    expect((await request(t.app, 'DELETE', `/token/${ids.variableIp}`, { token: ben.token })).statusCode).toBe(404);
    // Operations on a deleted token answer 404.
    expect((await request(t.app, 'PUT', `/token/reset/${ids.variableTraffic}`, { token: ann.token })).statusCode).toBe(
      404,
    );

    const batch = await request(t.app, 'DELETE', '/token/batch', {
      token: ann.token,
      body: { token_ids: [ids.variableIp, ids.variableTraffic, ids.idcIp, 987_654] },
    });
    expect(batch.json().data).toEqual({ success: 2, failed: 2, total: 4 });
    const foreign = await request(t.app, 'DELETE', '/token/batch', {
      token: ben.token,
      body: { token_ids: [ids.staticIp] },
    });
    expect(foreign.json().data).toEqual({ success: 0, failed: 1, total: 1 });
    expect(await listIds('/token/list/isp/static')).toContain(ids.staticIp);

    const restore = await request(t.app, 'PUT', '/token/batch/restore', {
      token: ann.token,
      body: { token_ids: [ids.variableIp, ids.variableTraffic, ids.idcIp, ids.staticIp] },
    });
    expect(restore.json().data).toEqual({ success: 3, failed: 1, total: 4 });
    expect(await listIds('/token/list/isp/dynamic')).toEqual(
      [ids.variableIp, ids.variableTraffic].sort((a, b) => a - b),
    );
    const foreignRestore = await request(t.app, 'PUT', '/token/batch/restore', {
      token: ben.token,
      body: { token_ids: [ids.variableIp] },
    });
    expect(foreignRestore.json().data).toEqual({ success: 0, failed: 1, total: 1 });
    for (const body of [{ token_ids: [] }, {}]) {
      const empty = await request(t.app, 'DELETE', '/token/batch', { token: ann.token, body, lang: 'en' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().data.issues[0].message).toBe('Please select at least one item');
    }
  });

  it('keeps an expired token expired when it is restored', async () => {
    const fay = await createUser(t.app, mailer, 'fay');
    const id = (
      await buyOk(t.app, fay.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    await request(t.app, 'DELETE', `/token/${id}`, { token: fay.token });
    clock.advance(2 * DAY);
    while (await expireNextToken(t.deps));
    await signIn(t.app, fay);
    const restore = await request(t.app, 'PUT', '/token/batch/restore', {
      token: fay.token,
      body: { token_ids: [id] },
    });
    expect(restore.json().data.success).toBe(1);
    const row = (await request(t.app, 'GET', '/token/list/static/ip', { token: fay.token })).json().data.records[0];
    expect(row.status).toBe('expired');
    const enable = await request(t.app, 'PUT', `/token/${id}`, { token: fay.token, body: { status: 'enabled' } });
    expect(enable.json()).toMatchObject({ code: 3003 });
  });
});
