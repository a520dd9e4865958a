import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyUsername } from '@proxy/contract';
import { eq } from 'drizzle-orm';
import { pools } from '@proxy/db';
import { addTestPool } from '../areas/areas-test-kit';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { insertExitNodes } from '../inventory/inventory.repository';
import { createMemoryMailer, createTestApp } from '../../../test/helpers';
import { buyOk, createUser, creditFen, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';
import { distinctSessionIds } from './endpoint-lines';

// Lines used through a real gateway: apps/launcher/src/real-path/endpoint-files.test.ts.
describe('endpoint files (spider records)', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let dynamicId: number;
  let staticId: number;
  let bensId: number;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 10_000);
    // A second direct exit in the US, so dynamic tokens have two exits to rotate among.
    await t.db.db.transaction(async (tx) => {
      await insertExitNodes(tx, [
        {
          kind: 'residential',
          egress: 'direct',
          host: '',
          port: 0,
          country: 'us',
          state: 'ca',
          city: 'losangeles',
          cityName: 'Los Angeles',
        },
      ]);
      await bumpGatewayVersion(tx);
    });
    const base = { network: 'HTTP', country_id: 'us', quantity: 1 };
    dynamicId = (await buyOk(t.app, ann.token, '/token/variable/traffic', { ...base, traffic_gb: 0.1 })).tokens[0]
      .token_id;
    staticId = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, days: 1 })).tokens[0].token_id;
    bensId = (await buyOk(t.app, ben.token, '/token/static/ip', { ...base, days: 1 })).tokens[0].token_id;
  });
  afterAll(async () => {
    await t?.close();
  });

  function create(body: object, token = ann.token, lang = 'en') {
    return request(t.app, 'POST', '/token/create/spider', { token, body, lang });
  }

  it('makes sticky lines with a distinct session each, the area and sesstime in the username grammar', async () => {
    const res = await create({
      token_id: dynamicId,
      country_id: 'us',
      state_id: 'ca',
      session: 'sticky',
      sesstime: 15,
      line: 'hpup',
      count: 50,
    });
    expect(res.json().code, res.body).toBe(0);
    const record = res.json().data;
    expect(record).toMatchObject({
      token_id: dynamicId,
      line_count: 50,
      params: {
        country_id: 'us',
        state_id: 'ca',
        city_id: '',
        session: 'sticky',
        sesstime: 15,
        line: 'hpup',
        count: 50,
      },
      filename: `endpoints-${record.id}.txt`,
    });
    const sessions = new Set<string>();
    for (const line of record.lines as string[]) {
      const [host, port, user, pass] = line.split(':');
      expect(host).toBe('127.0.0.1');
      expect(Number(port)).toBe(t.deps.config.GATEWAY_PUBLIC_PORT);
      expect(pass.length).toBeGreaterThan(0);
      const parsed = parseProxyUsername(user)!;
      expect(parsed.username).toBe(record.token_username);
      expect(parsed.options).toMatchObject({ country: 'us', state: 'ca', sesstime: 15 });
      sessions.add(parsed.options.session!);
    }
    expect(sessions.size).toBe(50);
  });

  it('rotating lines repeat the same username; a static token answers one plain line', async () => {
    // The proxy speaks HTTP: a socks5:// line would be refused at the gateway, so its lines keep its own scheme.
    const rotating = await create({
      token_id: dynamicId,
      country_id: 'us',
      session: 'rotating',
      line: 'socks5',
      count: 3,
    });
    const lines = rotating.json().data.lines as string[];
    expect(new Set(lines).size).toBe(1);
    expect(lines[0]).toMatch(/^http:\/\/u[a-z0-9]+-country-us:[A-Za-z0-9]+@127\.0\.0\.1:\d+$/);
    const pinned = await create({ token_id: staticId, country_id: 'us', session: 'sticky', count: 20, line: 'upahp' });
    expect(pinned.json().data).toMatchObject({
      line_count: 1,
      params: { count: 1, session: 'rotating', sesstime: null, country_id: '' },
    });
    expect(pinned.json().data.lines[0]).toMatch(/^u[a-z0-9]+:[A-Za-z0-9]+@127\.0\.0\.1:\d+$/);
  });

  it('lists the files newest first and downloads one as text', async () => {
    const list = await request(t.app, 'GET', '/token/spider/records?page=1&page_size=2', { token: ann.token });
    expect(list.json().code).toBe(0);
    const page = list.json().data;
    // Three files made by the tests above: sticky (50 lines), rotating (3) and pinned (1).
    expect(page.total).toBe(3);
    expect(page.records).toHaveLength(2);
    expect(page.records[0].id).toBeGreaterThan(page.records[1].id);
    expect(page.records[0]).not.toHaveProperty('lines');
    const ofToken = await request(t.app, 'GET', `/token/spider/records?token_id=${staticId}`, { token: ann.token });
    expect(ofToken.json().data.total).toBe(1);
    const file = await request(t.app, 'GET', `/token/spider/record/file/${page.records[1].id}`, { token: ann.token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/plain');
    expect(file.headers['content-disposition']).toContain(`endpoints-${page.records[1].id}.txt`);
    expect(file.body.trim().split('\n')).toHaveLength(3);
  });

  it("keeps users apart: another user's token or file is not found, their list is empty", async () => {
    expect((await create({ token_id: bensId, count: 1 })).statusCode).toBe(404);
    const list = await request(t.app, 'GET', '/token/spider/records', { token: ben.token });
    expect(list.json().data.total).toBe(0);
    const anns = await request(t.app, 'GET', '/token/spider/records', { token: ann.token });
    const id = anns.json().data.records[0].id;
    expect((await request(t.app, 'GET', `/token/spider/record/file/${id}`, { token: ben.token })).statusCode).toBe(404);
  });

  it('needs a session', async () => {
    expect(
      (await request(t.app, 'POST', '/token/create/spider', { body: { token_id: dynamicId, count: 1 } })).statusCode,
    ).toBe(401);
    expect((await request(t.app, 'GET', '/token/spider/records')).statusCode).toBe(401);
    expect((await request(t.app, 'GET', '/token/spider/record/file/1')).statusCode).toBe(401);
  });

  it('refuses bad input with messages in zh and en, and areas without stock', async () => {
    const cases: [object, string, string, string][] = [
      [{ token_id: dynamicId, count: 0 }, 'count', '生成数量为 1-10000', 'Count must be 1-10000'],
      [{ token_id: dynamicId, count: 10_001 }, 'count', '生成数量为 1-10000', 'Count must be 1-10000'],
      [
        { token_id: dynamicId, count: 1, session: 'sticky', sesstime: 121 },
        'sesstime',
        '会话时长为 1-120 分钟',
        'Session time must be 1-120 minutes',
      ],
      [
        { token_id: dynamicId, count: 1, session: 'rotating', sesstime: 5 },
        'sesstime',
        '仅粘性会话可设置会话时长',
        'Session time applies to sticky sessions only',
      ],
      [{ token_id: dynamicId, count: 1, line: 'ftp' }, 'line', '取值无效', 'Invalid value'],
      [{ count: 1 }, 'token_id', '请选择代理', 'Please select a proxy'],
      [
        { token_id: dynamicId, count: 1, country_id: 'us', city_id: 'losangeles' },
        'state_id',
        '选择城市前请先选择州/省',
        'Please select a state before a city',
      ],
    ];
    for (const [body, path, zh, en] of cases) {
      const inZh = await create(body, ann.token, 'zh');
      expect(inZh.statusCode, JSON.stringify(body)).toBe(400);
      expect(inZh.json().data.issues).toContainEqual({ path, message: zh });
      expect((await create(body, ann.token, 'en')).json().data.issues).toContainEqual({ path, message: en });
    }
    const noStock = await create({ token_id: dynamicId, count: 1, country_id: 'jp' });
    expect(noStock.json().data.error).toBe('NO_STOCK');
  });

  it('makes lines for a country only an upstream pool serves (a traffic proxy may use pools)', async () => {
    const poolId = await addTestPool(t.db.db, 'Brazil only', { coverage: [{ country: 'br', state: '', city: '' }] });
    try {
      const res = await create({ token_id: dynamicId, count: 2, country_id: 'br' });
      expect(res.json().code, res.body).toBe(0);
      expect(res.json().data.line_count).toBe(2);
      // Not an area the pool serves: still refused.
      expect((await create({ token_id: dynamicId, count: 1, country_id: 'jp' })).json().data.error).toBe('NO_STOCK');
    } finally {
      await t.db.db.delete(pools).where(eq(pools.id, poolId));
    }
  });

  it('draws distinct session ids', () => {
    const ids = distinctSessionIds(2000);
    expect(new Set(ids).size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{10}$/);
  });
});
