import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes, proxyTokens } from '@proxy/db';
import { buildOpenApi } from '@proxy/contract';
import { createMemoryMailer, createTestApp } from '../../../test/helpers';
import { importInventory } from '../inventory/inventory.service';
import { buyOk, createUser, creditFen, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';

describe('customer API (/api/v1) and the personal API key', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser & { key: string };
  let ben: TTestUser & { key: string };
  const ids: Record<string, number> = {};

  async function keyOf(user: TTestUser): Promise<string> {
    return (await request(t.app, 'GET', '/user/info', { token: user.token })).json().data.token as string;
  }

  function v1(path: string, options: { key?: string; queryKey?: string; token?: string; lang?: string } = {}) {
    const url = options.queryKey
      ? `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(options.queryKey)}`
      : path;
    return request(t.app, 'GET', url, {
      token: options.token,
      lang: options.lang,
      headers: options.key ? { 'x-api-key': options.key } : {},
    });
  }

  beforeAll(async () => {
    t = await createTestApp({ mailer, config: { GATEWAY_PUBLIC_HOST: 'gw.test', GATEWAY_PUBLIC_PORT: '7000' } });
    await seedProxyStartup(t.deps);
    await importInventory(t.deps, '10.9.0.1:3128,us,ca,Los Angeles\n10.9.0.2:3128,de,be,Berlin\n', 'residential');
    await t.db.db.update(exitNodes).set({ exitIp: '203.0.113.7' }).where(eq(exitNodes.host, '10.9.0.2'));
    const a = await createUser(t.app, mailer, 'ann');
    const b = await createUser(t.app, mailer, 'ben');
    ann = { ...a, key: await keyOf(a) };
    ben = { ...b, key: await keyOf(b) };
    await creditFen(t.deps, ann.userId, 100_000);
    ids.usHttp = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    ids.deSocks = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'SOCKS5', country_id: 'de', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    ids.usDynamic = (
      await buyOk(t.app, ann.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 1,
      })
    ).tokens[0].token_id;
    ids.disabled = (
      await buyOk(t.app, ann.token, '/token/variable/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    await request(t.app, 'PUT', `/token/${ids.disabled}`, { token: ann.token, body: { status: 'disabled' } });
    ids.bens = (
      await buyOk(t.app, ben.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists areas with the key in the header or the query, and with the console's bearer token", async () => {
    const byHeader = await v1('/v1/areas/countries', { key: ann.key, lang: 'en' });
    expect(byHeader.json().code, byHeader.body).toBe(0);
    expect(byHeader.json().data.map((a: { id: string }) => a.id)).toEqual(['de', 'us']);
    const byQuery = await v1('/v1/areas/states?countryId=us', { queryKey: ann.key });
    // Ann's static IP proxy in the US holds the one upstream node there: none is available.
    expect(byQuery.json().data).toEqual([
      { id: 'ca', name: 'California', name_zh: 'California', name_en: 'California', available: 0 },
    ]);
    const cities = await v1('/v1/areas/cities?countryId=us&stateId=ca', { token: ann.token });
    expect(cities.json().data).toEqual([
      { id: 'losangeles', name: 'Los Angeles', name_zh: 'Los Angeles', name_en: 'Los Angeles', available: 0 },
    ]);
    const de = await v1('/v1/areas/states?countryId=DE', { key: ann.key, lang: 'zh' });
    expect(de.json().data[0]).toMatchObject({ id: 'be', name_en: 'Berlin' });
  });

  it('refuses a missing or wrong key (401), and bad parameters with messages in zh and en', async () => {
    expect((await v1('/v1/areas/countries')).statusCode).toBe(401);
    expect((await v1('/v1/areas/countries', { key: 'pk_wrong' })).statusCode).toBe(401);
    expect((await v1('/v1/proxies', { queryKey: 'pk_wrong' })).statusCode).toBe(401);
    const noCountry = await v1('/v1/areas/states', { key: ann.key, lang: 'zh' });
    expect(noCountry.statusCode).toBe(400);
    expect(noCountry.json().data.issues).toEqual([{ path: 'countryId', message: '请选择国家' }]);
    const badNet = await v1('/v1/proxies?networkType=FTP', { key: ann.key, lang: 'en' });
    expect(badNet.json().data.issues).toEqual([{ path: 'networkType', message: 'Invalid value' }]);
    const badLimit = await v1('/v1/endpoints?limit=0', { key: ann.key, lang: 'zh' });
    expect(badLimit.json().data.issues).toEqual([{ path: 'limit', message: 'limit 为 1-10000' }]);
    const badIp = await v1('/v1/proxies?ipAddress=not-an-ip', { key: ann.key, lang: 'en' });
    expect(badIp.statusCode).toBe(400);
    expect(badIp.json().data.issues).toEqual([
      { path: 'ipAddress', message: 'Please enter a valid IPv4 or IPv6 address' },
    ]);
  });

  it("lists the user's proxies, paged and filtered by networkType, countryId and exit ipAddress", async () => {
    const all = await v1('/v1/proxies?page=1&pageSize=2', { key: ann.key });
    expect(all.json().code).toBe(0);
    expect(all.json().data).toMatchObject({ total: 4, page: 1, page_size: 2 });
    expect(all.json().data.records).toHaveLength(2);
    expect(all.json().data.records[0]).toMatchObject({ token_id: ids.disabled, host: 'gw.test', port: 7000 });
    const socks = await v1('/v1/proxies?networkType=SOCKS5', { key: ann.key });
    expect(socks.json().data.records.map((r: { token_id: number }) => r.token_id)).toEqual([ids.deSocks]);
    const us = await v1('/v1/proxies?countryId=us&pageSize=50', { key: ann.key });
    expect(us.json().data.total).toBe(3);
    const byExit = await v1('/v1/proxies?ipAddress=203.0.113.7', { key: ann.key });
    expect(byExit.json().data.records.map((r: { token_id: number }) => r.token_id)).toEqual([ids.deSocks]);
    const bens = await v1('/v1/proxies', { key: ben.key });
    expect(bens.json().data.records.map((r: { token_id: number }) => r.token_id)).toEqual([ids.bens]);
  });

  it('answers endpoint lines as text or JSON: one per usable proxy, or limit lines of one proxy', async () => {
    const text = await v1('/v1/endpoints?networkType=HTTP', { key: ann.key });
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toContain('text/plain');
    const lines = text.body.trim().split('\n');
    // The disabled proxy is left out; the SOCKS5 one is filtered out.
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^gw\.test:7000:u[a-z0-9]+:[A-Za-z0-9]+$/);

    const json = await v1(
      `/v1/endpoints?proxyId=${ids.usDynamic}&format=json&session=sticky&sesstime=5&limit=3&countryId=us&stateId=ca&line=http`,
      {
        queryKey: ann.key,
      },
    );
    expect(json.json().code, json.body).toBe(0);
    const endpoints = json.json().data.endpoints as { username: string; line: string; url: string; proxy_id: number }[];
    expect(json.json().data.total).toBe(3);
    expect(new Set(endpoints.map((e) => e.username)).size).toBe(3);
    for (const e of endpoints) {
      expect(e.proxy_id).toBe(ids.usDynamic);
      expect(e.username).toMatch(/^u[a-z0-9]+-country-us-state-ca-session-[a-z0-9]{10}-sesstime-5$/);
      expect(e.line).toBe(e.url);
      expect(e.line.startsWith('http://')).toBe(true);
    }
    const pinned = await v1(`/v1/endpoints?proxyId=${ids.deSocks}&limit=5&line=socks5`, { key: ann.key });
    expect(pinned.body.trim().split('\n')).toHaveLength(1);
    expect(pinned.body).toMatch(/^socks5:\/\//);
  });

  it("keeps users apart: another user's proxy id is not found", async () => {
    expect((await v1(`/v1/endpoints?proxyId=${ids.bens}`, { key: ann.key })).statusCode).toBe(404);
    expect((await v1(`/v1/endpoints?proxyId=${ids.usHttp}`, { key: ben.key })).statusCode).toBe(404);
    const [row] = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, ids.usHttp));
    const bens = await v1('/v1/endpoints', { key: ben.key });
    expect(bens.body).not.toContain(row.username);
  });

  it('resets the API key with the bearer token only; the old key stops working at once', async () => {
    expect((await request(t.app, 'POST', '/user/api-key/reset')).statusCode).toBe(401);
    expect(
      (await request(t.app, 'POST', '/user/api-key/reset', { headers: { 'x-api-key': ann.key } })).statusCode,
    ).toBe(401);
    const reset = await request(t.app, 'POST', '/user/api-key/reset', { token: ann.token });
    expect(reset.json().code, reset.body).toBe(0);
    const fresh = reset.json().data.token as string;
    expect(fresh).not.toBe(ann.key);
    expect(fresh).toMatch(/^pk_/);
    expect((await v1('/v1/proxies', { key: ann.key })).statusCode).toBe(401);
    expect((await v1('/v1/proxies', { queryKey: ann.key })).statusCode).toBe(401);
    expect((await v1('/v1/proxies', { key: fresh })).json().data.total).toBe(4);
    expect(await keyOf(ann)).toBe(fresh);
    // Ben's key is untouched.
    expect((await v1('/v1/proxies', { key: ben.key })).statusCode).toBe(200);
    ann.key = fresh;
  });

  it('documents the customer API in the OpenAPI document with its parameter names', () => {
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { summary: string; parameters: { name: string }[]; security: unknown[] }>>;
    };
    const endpoints = doc.paths['/api/v1/endpoints'].get;
    expect(endpoints.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'proxyId',
        'countryId',
        'stateId',
        'cityId',
        'networkType',
        'limit',
        'format',
        'session',
        'sesstime',
      ]),
    );
    expect(doc.paths['/api/v1/proxies'].get.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'pageSize', 'networkType', 'countryId', 'ipAddress']),
    );
    expect(doc.paths['/api/v1/areas/cities'].get.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['countryId', 'stateId']),
    );
    expect(doc.paths['/api/v1/proxies'].get.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/user/api-key/reset'].post.summary).toContain('API key');
  });
});
