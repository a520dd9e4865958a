import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipBoundToHex, parseIpEntry, isIpParseError, IP_LIST_MAX_ENTRIES } from '@proxy/contract';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { callApi, postForm, registerUser } from '../auth/auth-test-kit';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { insertIpListEntries } from './ip-lists.repository';

describe('IP whitelist and blacklist', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    token = await registerUser(t.app, mailer, { email: 'ivy@example.com', username: 'ivy' });
    otherToken = await registerUser(t.app, mailer, { email: 'otto@example.com', username: 'otto' });
  });
  afterAll(async () => {
    await t.close();
  });

  const add = (
    list: 'whitelist' | 'blacklist',
    ip: string,
    options: { tk?: string; lang?: string; remark?: string } = {},
  ) =>
    postForm(
      t.app,
      `/user/add/ip/${list}`,
      { ip, ...(options.remark !== undefined ? { remark: options.remark } : {}) },
      { token: options.tk ?? token, lang: options.lang ?? 'en' },
    );
  const list = async (name: 'whitelist' | 'blacklist', tk = token, query = '') => {
    const res = await callApi(t.app, 'GET', `/user/ip/${name}${query}`, { token: tk });
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      records: { id: number; ip: string; kind: string; remark: string; created_at: string }[];
      total: number;
      page: number;
      page_size: number;
    };
  };
  const version = () => readGatewayVersion(t.deps.db);
  async function userIdOf(tk: string): Promise<number> {
    return (await callApi(t.app, 'GET', '/user/info', { token: tk })).json().data.user_id as number;
  }

  it('needs a session for every call', async () => {
    expect((await callApi(t.app, 'GET', '/user/ip/whitelist')).statusCode).toBe(401);
    expect((await callApi(t.app, 'GET', '/user/ip/blacklist')).statusCode).toBe(401);
    expect((await postForm(t.app, '/user/add/ip/whitelist', { ip: '1.2.3.4' })).statusCode).toBe(401);
    expect((await postForm(t.app, '/user/add/ip/blacklist', { ip: '1.2.3.4' })).statusCode).toBe(401);
    const remove = await callApi(t.app, 'DELETE', '/user/remove/ip/1');
    expect(remove.statusCode).toBe(401);
    expect(remove.json().code).toBe(401);
    expect((await callApi(t.app, 'GET', '/user/ip/whitelist', { token: 'not-a-jwt' })).statusCode).toBe(401);
  });

  it('adds several entries at once in canonical form, and bumps the gateway version', async () => {
    const before = await version();
    clock.advance(1000);
    const res = await add('whitelist', ' 1.2.3.4 ; 10.0.0.5/24;10.0.1.1 - 10.0.1.9; 2001:DB8:0:0::1 ;', {
      remark: ' office ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(0);
    const records = res.json().data.records;
    expect(records.map((r: { ip: string; kind: string }) => [r.ip, r.kind])).toEqual([
      ['1.2.3.4', 'single'],
      ['10.0.0.0/24', 'cidr'],
      ['10.0.1.1-10.0.1.9', 'range'],
      ['2001:db8::1', 'single'],
    ]);
    expect(records[0]).toMatchObject({ remark: 'office', created_at: clock.now().toISOString() });
    expect(typeof records[0].id).toBe('number');
    expect(await version()).toBe(before + 1);

    const page = await list('whitelist');
    expect(page).toMatchObject({ total: 4, page: 1, page_size: 20 });
    expect(page.records.map((r) => r.ip).sort()).toEqual([
      '1.2.3.4',
      '10.0.0.0/24',
      '10.0.1.1-10.0.1.9',
      '2001:db8::1',
    ]);
    expect((await list('blacklist')).total).toBe(0);
    expect((await list('whitelist', otherToken)).total).toBe(0);
  });

  it('stores the normalised range as 32-digit hex for the gateway', async () => {
    const rows = await t.db.db.query.ipListEntries.findMany();
    const cidr = rows.find((r) => r.entry === '10.0.0.0/24')!;
    expect(cidr).toMatchObject({
      list: 'whitelist',
      family: 4,
      startHex: ipBoundToHex(0x0a000000n),
      endHex: ipBoundToHex(0x0a0000ffn),
    });
    expect(cidr.startHex).toHaveLength(32);
  });

  it('lists newest first and pages', async () => {
    clock.advance(1000);
    expect((await add('whitelist', '5.5.5.5')).json().code).toBe(0);
    const first = await list('whitelist', token, '?page=1&page_size=2');
    expect(first).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(first.records[0].ip).toBe('5.5.5.5');
    const third = await list('whitelist', token, '?page=3&page_size=2');
    expect(third.records).toHaveLength(1);
    expect((await callApi(t.app, 'GET', '/user/ip/whitelist?page=0', { token })).statusCode).toBe(400);
    expect((await callApi(t.app, 'GET', '/user/ip/blacklist?page_size=abc', { token })).statusCode).toBe(400);
  });

  it.each([
    ['leading zeros', '010.0.0.1', '010.0.0.1'],
    ['prefix /33', '1.2.3.4/33', '1.2.3.4/33'],
    ['reversed range', '10.0.0.5-10.0.0.1', '10.0.0.5-10.0.0.1'],
    ['mixed families', '10.0.0.1-::1', '10.0.0.1-::1'],
    ['space inside an entry', '1.2.3.4 5.6.7.8', '1.2.3.4 5.6.7.8'],
    ['junk', 'example.com', 'example.com'],
    ['zone id', 'fe80::1%eth0', 'fe80::1%eth0'],
    ['malformed mapped address', '::ffff:01.2.3.4', '::ffff:01.2.3.4'],
    ['bad entry among good ones', '7.7.7.7; 8.8.8.8/8/8 ; 9.9.9.9', '8.8.8.8/8/8'],
  ])('refuses %s with "Invalid IP Format" naming the entry, creating nothing', async (_label, input, named) => {
    const before = await version();
    const totalBefore = (await list('whitelist')).total;
    const res = await add('whitelist', input);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 4101,
      msg: `Invalid IP Format: ${named}`,
      data: { error: 'IP_FORMAT_INVALID' },
    });
    expect((await list('whitelist')).total).toBe(totalBefore);
    expect(await version()).toBe(before);
  });

  it('says "Invalid IP Format" in Chinese with Lang zh', async () => {
    const res = await add('blacklist', '1.2.3.4/33', { lang: 'zh' });
    expect(res.json()).toMatchObject({ code: 4101, msg: 'IP 格式无效：1.2.3.4/33' });
  });

  it('ignores empty parts between separators but wants at least one entry', async () => {
    const res = await add('blacklist', ';6.6.6.6;; ;6.6.6.7;');
    expect(res.json().data.records.map((r: { ip: string }) => r.ip)).toEqual(['6.6.6.6', '6.6.6.7']);
    for (const ip of [' ; ;', '']) {
      const empty = await add('blacklist', ip);
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({
        code: 400,
        msg: 'Please enter an IP address, CIDR block or IP range',
        data: { error: 'BAD_REQUEST' },
      });
    }
    const missing = await postForm(t.app, '/user/add/ip/blacklist', { remark: 'x' }, { token, lang: 'zh' });
    expect(missing.json()).toMatchObject({ code: 400, msg: '请输入 IP 地址、CIDR 网段或 IP 范围' });
  });

  it('refuses a duplicate of an entry of the list, by normalised range, in both languages', async () => {
    const before = await version();
    const mapped = await add('whitelist', '::ffff:1.2.3.4');
    expect(mapped.statusCode).toBe(409);
    expect(mapped.json()).toEqual({
      code: 4102,
      msg: 'IP already exists in whitelist: 1.2.3.4',
      data: { error: 'IP_DUPLICATE' },
    });
    const sameRange = await add('whitelist', '10.0.0.0-10.0.0.255', { lang: 'zh' });
    expect(sameRange.json()).toMatchObject({ code: 4102, msg: 'IP 已存在于白名单中：10.0.0.0-10.0.0.255' });
    const blacklist = await add('blacklist', '6.6.6.6', { lang: 'zh' });
    expect(blacklist.json()).toMatchObject({ code: 4102, msg: 'IP 已存在于黑名单中：6.6.6.6' });
    // All or nothing: the new entry before the duplicate is not created either.
    const mixed = await add('whitelist', '4.4.4.4; 1.2.3.4');
    expect(mixed.json().code).toBe(4102);
    expect((await list('whitelist')).records.some((r) => r.ip === '4.4.4.4')).toBe(false);
    expect(await version()).toBe(before);
    // A different list, and another user, may hold the same range.
    expect((await add('blacklist', '1.2.3.4')).json().code).toBe(0);
    expect((await add('whitelist', '1.2.3.4', { tk: otherToken })).json().code).toBe(0);
  });

  it('refuses duplicates within one submission', async () => {
    const res = await add('blacklist', '9.9.9.9; 2.2.2.2; ::ffff:9.9.9.9');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 4102, msg: 'IP already exists in blacklist: 9.9.9.9' });
    const cidr = await add('blacklist', '20.0.0.0/30; 20.0.0.1-20.0.0.3; 20.0.0.0-20.0.0.3');
    expect(cidr.json()).toMatchObject({ code: 4102, msg: 'IP already exists in blacklist: 20.0.0.0-20.0.0.3' });
    const blacklist = await list('blacklist');
    expect(blacklist.records.map((r) => r.ip)).not.toContain('9.9.9.9');
    expect(blacklist.records.map((r) => r.ip)).not.toContain('2.2.2.2');
  });

  it('limits the remark to 100 characters', async () => {
    const res = await add('blacklist', '3.3.3.3', { remark: 'x'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msg: 'The remark must be at most 100 characters' });
    const okRes = await add('blacklist', '3.3.3.3', { remark: 'y'.repeat(100) });
    expect(okRes.json().data.records[0].remark).toBe('y'.repeat(100));
  });

  it(`keeps at most ${IP_LIST_MAX_ENTRIES} entries per list and user`, async () => {
    const capToken = await registerUser(t.app, mailer, { email: 'cap@example.com', username: 'capper' });
    const userId = await userIdOf(capToken);
    // Seed all but two entries directly: 498 posts would only slow the suite.
    const seeded = Array.from({ length: IP_LIST_MAX_ENTRIES - 2 }, (_, i) => {
      const r = parseIpEntry(`100.64.${Math.floor(i / 256)}.${i % 256}`);
      if (isIpParseError(r)) throw new Error('seed');
      return {
        userId,
        list: 'whitelist' as const,
        entry: r.text,
        kind: r.kind,
        family: r.family,
        startHex: ipBoundToHex(r.start),
        endHex: ipBoundToHex(r.end),
      };
    });
    await insertIpListEntries(t.db.db, seeded);
    const before = await version();
    const tooMany = await add('whitelist', '1.1.1.1; 1.1.1.2; 1.1.1.3', { tk: capToken });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({
      code: 4103,
      msg: 'The whitelist holds at most 500 entries; it has 498',
      data: { error: 'IP_LIST_FULL' },
    });
    expect((await list('whitelist', capToken)).total).toBe(IP_LIST_MAX_ENTRIES - 2);
    expect(await version()).toBe(before);
    expect((await add('whitelist', '1.1.1.1; 1.1.1.2', { tk: capToken })).json().code).toBe(0);
    const full = await add('whitelist', '1.1.1.3', { tk: capToken, lang: 'zh' });
    expect(full.json()).toMatchObject({ code: 4103, msg: '白名单最多可添加 500 条，当前已有 500 条' });
    // The cap is per list: the blacklist still takes entries.
    expect((await add('blacklist', '1.1.1.3', { tk: capToken })).json().code).toBe(0);
  });

  it('holds the cap under parallel adds of different entries', async () => {
    const raceToken = await registerUser(t.app, mailer, { email: 'race@example.com', username: 'racer' });
    const userId = await userIdOf(raceToken);
    const seeded = Array.from({ length: IP_LIST_MAX_ENTRIES - 1 }, (_, i) => {
      const r = parseIpEntry(`100.65.${Math.floor(i / 256)}.${i % 256}`);
      if (isIpParseError(r)) throw new Error('seed');
      return {
        userId,
        list: 'blacklist' as const,
        entry: r.text,
        kind: r.kind,
        family: r.family,
        startHex: ipBoundToHex(r.start),
        endHex: ipBoundToHex(r.end),
      };
    });
    await insertIpListEntries(t.db.db, seeded);
    const answers = await Promise.all(
      ['2.0.0.1', '2.0.0.2', '2.0.0.3', '2.0.0.4'].map((ip) => add('blacklist', ip, { tk: raceToken })),
    );
    expect(answers.map((a) => a.json().code).sort()).toEqual([0, 4103, 4103, 4103]);
    expect((await list('blacklist', raceToken)).total).toBe(IP_LIST_MAX_ENTRIES);
  });

  it('removes an entry from either list and bumps the gateway version', async () => {
    const white = (await list('whitelist')).records.find((r) => r.ip === '5.5.5.5')!;
    const black = (await list('blacklist')).records.find((r) => r.ip === '6.6.6.7')!;
    const before = await version();
    const res = await callApi(t.app, 'DELETE', `/user/remove/ip/${white.id}`, { token });
    expect(res.json()).toMatchObject({ code: 0, data: null });
    expect(await version()).toBe(before + 1);
    expect((await callApi(t.app, 'DELETE', `/user/remove/ip/${black.id}`, { token })).json().code).toBe(0);
    expect(await version()).toBe(before + 2);
    expect((await list('whitelist')).records.map((r) => r.ip)).not.toContain('5.5.5.5');
    expect((await list('blacklist')).records.map((r) => r.ip)).not.toContain('6.6.6.7');
    // Removed once: a second time is not found.
    expect((await callApi(t.app, 'DELETE', `/user/remove/ip/${white.id}`, { token })).statusCode).toBe(404);
    // The range can be added again.
    expect((await add('whitelist', '5.5.5.5')).json().code).toBe(0);
  });

  it("answers 404 for another user's entry and leaves it in place", async () => {
    const mine = (await list('whitelist')).records[0];
    const before = await version();
    const res = await callApi(t.app, 'DELETE', `/user/remove/ip/${mine.id}`, { token: otherToken, lang: 'en' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, msg: 'Resource or endpoint not found', data: { error: 'NOT_FOUND' } });
    const zh = await callApi(t.app, 'DELETE', `/user/remove/ip/${mine.id}`, { token: otherToken, lang: 'zh' });
    expect(zh.json().msg).toBe('资源或接口不存在');
    expect((await list('whitelist')).records.map((r) => r.id)).toContain(mine.id);
    expect(await version()).toBe(before);
    expect((await callApi(t.app, 'DELETE', '/user/remove/ip/999999999', { token })).statusCode).toBe(404);
    expect((await callApi(t.app, 'DELETE', '/user/remove/ip/abc', { token })).statusCode).toBe(400);
    expect((await callApi(t.app, 'DELETE', '/user/remove/ip/0', { token })).statusCode).toBe(400);
  });

  it('lets only one of two parallel adds of the same range through', async () => {
    const [a, b] = await Promise.all([add('blacklist', '44.44.44.0/24'), add('blacklist', '44.44.44.0-44.44.44.255')]);
    expect([a.json().code, b.json().code].sort()).toEqual([0, 4102]);
    expect((await list('blacklist')).records.filter((r) => r.ip.startsWith('44.44.44.')).length).toBe(1);
  });
});
