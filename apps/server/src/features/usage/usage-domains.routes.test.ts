import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { domainUsage, users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { buyOk, creditFen, createUser, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';

describe('usage by target domain: the figures, the CSV, the customer API and the setting', () => {
  // Today is 10 April (UTC): the default period is 4 to 10 April.
  const clock = createFakeClock(new Date('2026-04-10T02:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser & { key: string };
  let ben: TTestUser;
  let annsFirst: number;
  let annsSecond: number;
  let bensToken: number;

  async function addRows(
    tokenId: number,
    userId: number,
    day: string,
    rows: Record<string, [bytes: number, connections: number]>,
  ) {
    await t.db.db.insert(domainUsage).values(
      Object.entries(rows).map(([domain, [bytes, connections]]) => ({
        day,
        tokenId,
        userId,
        domain,
        bytes,
        connections,
      })),
    );
  }
  const get = async (user: TTestUser, query = '') =>
    (await request(t.app, 'GET', `/token/session/domains${query}`, { token: user.token })).json().data;

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    const a = await createUser(t.app, mailer, 'ann');
    ann = { ...a, key: (await request(t.app, 'GET', '/user/info', { token: a.token })).json().data.token as string };
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 100_000);
    const base = { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };
    annsFirst = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    annsSecond = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    bensToken = (await buyOk(t.app, ben.token, '/token/static/ip', base)).tokens[0].token_id;

    await addRows(annsFirst, ann.userId, '2026-04-09', {
      'example.com': [1000, 2],
      'example.co.uk': [500, 1],
      '': [100, 3],
    });
    await addRows(annsFirst, ann.userId, '2026-04-10', { 'example.com': [300, 1] });
    await addRows(annsSecond, ann.userId, '2026-04-09', { 'example.com': [200, 1], '203.0.113.9': [50, 1] });
    // Before the default period.
    await addRows(annsFirst, ann.userId, '2026-04-03', { 'example.com': [9000, 9] });
    // Ben's traffic to the same domain and to one Ann never reached, on the same days.
    await addRows(bensToken, ben.userId, '2026-04-09', {
      'example.com': [7777, 7],
      'ben-only.org': [4242, 4],
      '': [1, 1],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("sums an account's or a proxy's domains over the last 7 UTC days, most bytes first, with other and shares", async () => {
    expect(await get(ann)).toEqual({
      token_id: null,
      from: '2026-04-04',
      to: '2026-04-10',
      enabled: true,
      total_bytes: 2150,
      total_connections: 9,
      domains: [
        { domain: 'example.com', bytes: 1500, connections: 4, share: 0.6977 },
        { domain: 'example.co.uk', bytes: 500, connections: 1, share: 0.2326 },
        { domain: '203.0.113.9', bytes: 50, connections: 1, share: 0.0233 },
      ],
      other: { bytes: 100, connections: 3, share: 0.0465 },
    });
    const first = await get(ann, `?token_id=${annsFirst}`);
    expect(first.token_id).toBe(annsFirst);
    expect(first.domains.map((d: { domain: string; bytes: number }) => [d.domain, d.bytes])).toEqual([
      ['example.com', 1300],
      ['example.co.uk', 500],
    ]);
    expect([first.other.bytes, first.total_bytes]).toEqual([100, 1900]);
    const oneDay = await get(ann, `?token_id=${annsSecond}&from=2026-04-10&to=2026-04-10`);
    expect([oneDay.domains, oneDay.other, oneDay.total_bytes]).toEqual([[], { bytes: 0, connections: 0, share: 0 }, 0]);
    const wide = await get(ann, '?from=2026-04-01');
    expect([wide.from, wide.to, wide.total_bytes, wide.domains[0]]).toEqual([
      '2026-04-01',
      '2026-04-10',
      11_150,
      { domain: 'example.com', bytes: 10_500, connections: 13, share: 0.9417 },
    ]);
  });

  it("never lets a domain reach another account's figures, and answers 404 for another account's proxy", async () => {
    const bens = await get(ben);
    expect(bens.domains).toEqual([
      { domain: 'example.com', bytes: 7777, connections: 7, share: 0.647 },
      { domain: 'ben-only.org', bytes: 4242, connections: 4, share: 0.3529 },
    ]);
    expect([bens.other.bytes, bens.total_bytes]).toEqual([1, 12_020]);
    const anns = await get(ann);
    expect(anns.domains.map((d: { domain: string }) => d.domain)).not.toContain('ben-only.org');
    for (const path of ['/token/session/domains', '/token/session/domains/export']) {
      const res = await request(t.app, 'GET', `${path}?token_id=${bensToken}`, { token: ann.token, lang: 'en' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).not.toBe(0);
    }
    const v1 = await request(t.app, 'GET', `/v1/usage/domains?proxyId=${bensToken}`, {
      headers: { 'x-api-key': ann.key },
    });
    expect(v1.statusCode).toBe(404);
    expect((await request(t.app, 'GET', '/token/session/domains')).statusCode).toBe(401);
  });

  it("refuses a bad period or proxy id with a 400 in the caller's language", async () => {
    const refused = async (query: string, lang = 'en') => {
      const res = await request(t.app, 'GET', `/token/session/domains${query}`, { token: ann.token, lang });
      expect(res.statusCode).toBe(400);
      return JSON.stringify(res.json().data.issues);
    };
    expect(await refused('?from=2026-04-09&to=2026-04-08', 'zh')).toContain('开始时间不能晚于结束时间');
    // 94 days, both ends included; 93 are answered.
    expect(await refused('?from=2026-01-06&to=2026-04-09')).toContain('at most 93 days');
    expect(
      (await request(t.app, 'GET', '/token/session/domains?from=2026-01-07&to=2026-04-09', { token: ann.token }))
        .statusCode,
    ).toBe(200);
    expect(await refused('?from=2026-04-31')).toContain('from');
    expect(await refused('?from=2026-04-01T00:00:00Z')).toContain('from');
    expect(await refused('?token_id=0')).toContain('token_id');
    expect(await refused('?token_id=abc')).toContain('token_id');
  });

  it('lists at most 100 named domains of the merged result and adds the rest to other, summing to the total', async () => {
    // Each proxy keeps 100 named domains on the 8th, 150 different ones together.
    const rows = (from: number, to: number) =>
      Object.fromEntries(
        Array.from({ length: to - from }, (_, i): [string, [number, number]] => [
          `d${from + i}.test`,
          [1000 + from + i, 1],
        ]),
      );
    await addRows(annsFirst, ann.userId, '2026-04-08', rows(0, 100));
    await addRows(annsSecond, ann.userId, '2026-04-08', rows(50, 150));
    onTestFinished(() =>
      t.db.db
        .delete(domainUsage)
        .where(eq(domainUsage.day, '2026-04-08'))
        .then(() => undefined),
    );
    const day = await get(ann, '?from=2026-04-08&to=2026-04-08');
    expect(day.domains).toHaveLength(100);
    // d50..d99 were carried by both proxies: twice the bytes, so they lead.
    expect(day.domains[0]).toMatchObject({ domain: 'd99.test', bytes: 2 * 1099, connections: 2 });
    expect(day.domains[49].domain).toBe('d50.test');
    expect(day.domains[50].domain).toBe('d149.test');
    expect(day.domains[99].domain).toBe('d100.test');
    const listed = day.domains.reduce((s: number, d: { bytes: number }) => s + d.bytes, 0);
    expect(day.other.bytes).toBe(day.total_bytes - listed);
    // The rest: d0..d49, 1000..1049 bytes each.
    expect(day.other).toMatchObject({ bytes: 50 * 1000 + (49 * 50) / 2, connections: 50 });
    expect(day.total_connections).toBe(200);
    const proxy = await get(ann, `?token_id=${annsFirst}&from=2026-04-08&to=2026-04-08`);
    expect([proxy.domains.length, proxy.other.bytes]).toEqual([100, 0]);
  });

  it('exports the same figures as CSV whose columns name the UTC days', async () => {
    const res = await request(t.app, 'GET', `/token/session/domains/export?token_id=${annsFirst}&from=2026-04-09`, {
      token: ann.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`domains-proxy-${annsFirst}-2026-04-09-2026-04-10-utc.csv`);
    expect(res.body).toBe(
      'from_utc_day,to_utc_day,proxy_id,domain,bytes,connections,share\r\n' +
        `2026-04-09,2026-04-10,${annsFirst},example.com,1300,3,0.6842\r\n` +
        `2026-04-09,2026-04-10,${annsFirst},example.co.uk,500,1,0.2632\r\n` +
        `2026-04-09,2026-04-10,${annsFirst},(other),100,3,0.0526\r\n` +
        `2026-04-09,2026-04-10,${annsFirst},(total),1900,7,1\r\n`,
    );
    const account = await request(t.app, 'GET', '/token/session/domains/export', { token: ben.token });
    expect(account.body.split('\r\n')[1]).toBe('2026-04-04,2026-04-10,,example.com,7777,7,0.647');
  });

  it('answers the same figures through the customer API with the personal API key', async () => {
    const v1 = await request(t.app, 'GET', `/v1/usage/domains?proxyId=${annsFirst}`, {
      headers: { 'x-api-key': ann.key },
    });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().data).toEqual(await get(ann, `?token_id=${annsFirst}`));
    const account = await request(t.app, 'GET', `/v1/usage/domains?key=${ann.key}&from=2026-04-09&to=2026-04-09`);
    expect(account.json().data.total_bytes).toBe(1850);
    const bad = await request(t.app, 'GET', `/v1/usage/domains?from=yesterday`, { headers: { 'x-api-key': ann.key } });
    expect(bad.statusCode).toBe(400);
  });

  it('turns the recording off and on beside the usage log setting, telling the gateways, and keeps past days', async () => {
    const settings = async () => (await request(t.app, 'GET', '/user/usage-log/settings', { token: ann.token })).json();
    expect((await settings()).data).toEqual({ enabled: false, retention_days: 7, domain_usage_enabled: true });

    const before = await readGatewayVersion(t.db.db);
    const off = await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: false, retention_days: 7, domain_usage_enabled: false },
    });
    expect(off.json().data).toEqual({ enabled: false, retention_days: 7, domain_usage_enabled: false });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(before);
    const [row] = await t.db.db.select().from(users).where(eq(users.id, ann.userId));
    expect(row.domainUsageEnabled).toBe(false);
    // Past days stay and are still answered, with the recording shown off.
    const figures = await get(ann);
    expect([figures.enabled, figures.total_bytes]).toEqual([false, 2150]);
    // Ben's setting is his own.
    expect((await get(ben)).enabled).toBe(true);

    // Without the field the recording is left as it is; a bad value changes nothing.
    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 3 },
    });
    expect((await settings()).data).toEqual({ enabled: true, retention_days: 3, domain_usage_enabled: false });
    const bad = await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      lang: 'en',
      body: { enabled: false, retention_days: 9, domain_usage_enabled: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().data.issues)).toContain('domain_usage_enabled');
    expect((await settings()).data).toEqual({ enabled: true, retention_days: 3, domain_usage_enabled: false });

    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 3, domain_usage_enabled: true },
    });
    expect((await get(ann)).enabled).toBe(true);
  });
});
