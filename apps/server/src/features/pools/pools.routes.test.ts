import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, POOL_HEALTH_FRESH_MS, type TPool } from '@proxy/contract';
import { auditEntries, poolHealth, pools } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { reportPoolHealth } from '../areas/areas-test-kit';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { openPoolPassword } from './pools.service';

// Operators' calls on upstream pools: create, list, edit, pause and resume, delete, coverage and spellings.
describe('upstream pools by operators', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;

  const template = 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]';
  const valid = {
    name: 'Residential A',
    kind: 'residential',
    protocol: 'http-connect',
    endpoints: [
      { host: 'PR.example.net', port: 7777 },
      { host: '203.0.113.9', port: 8000 },
    ],
    username: 'acme',
    password: 'provider-pass',
    username_template: template,
    area_case: 'upper',
    cost_per_gb_fen: 2500,
  };

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: object,
    options: { token?: string; lang?: string } = {},
  ) => request(t.app, method, path, { token: options.token ?? oper.token, body, lang: options.lang ?? 'en' });
  const poolCount = async () => (await t.db.db.select({ id: pools.id }).from(pools)).length;
  const create = async (over: object = {}) => {
    const res = await call('POST', '/admin/pools', { ...valid, ...over });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as { id: number } & Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a pool paused, never answers its password, stores it sealed and tells the gateways', async () => {
    const before = await readGatewayVersion(t.db.db);
    const pool = await create();
    expect(pool).toMatchObject({
      name: 'Residential A',
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [
        { host: 'pr.example.net', port: 7777 },
        { host: '203.0.113.9', port: 8000 },
      ],
      username: 'acme',
      has_password: true,
      template_placeholders: ['user', 'country', 'state', 'city', 'session', 'minutes'],
      session_length: 12,
      area_case: 'upper',
      coverage_mode: 'all',
      coverage_count: 0,
      area_mapping_count: 0,
      cost_per_gb_fen: 2500,
      priority: 10,
      weight: 100,
      max_connections: 1000,
      status: 'paused',
      last_check: null,
      coverage: [],
      area_mapping: [],
    });
    expect(JSON.stringify(pool)).not.toContain('provider-pass');
    expect(Object.keys(pool)).not.toContain('password');
    const [row] = await t.db.db.select().from(pools).where(eq(pools.id, pool.id));
    expect(row.password).toMatch(/^enc:v1:/);
    expect(openPoolPassword(t.deps, row)).toBe('provider-pass');
    expect(await readGatewayVersion(t.db.db)).toBe(before + 1);

    const got = await call('GET', `/admin/pools/${pool.id}`);
    expect(got.json().data).toEqual(pool);
    const again = await call('POST', '/admin/pools', { ...valid, name: 'residential a' });
    expect([again.statusCode, again.json().data.error]).toEqual([409, 'POOL_NAME_TAKEN']);
  });

  it('refuses a template with a character providers forbid, naming it in zh and en, and changes nothing', async () => {
    const count = await poolCount();
    const version = await readGatewayVersion(t.db.db);
    const zh = await call(
      'POST',
      '/admin/pools',
      { ...valid, name: 'B', username_template: 'user:{country}' },
      {
        lang: 'zh',
      },
    );
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toBe('用户名模板不能包含字符 ":" (U+003A)：上游不接受它出现在用户名中');
    expect(zh.json().data.issues[0].path).toBe('username_template');
    const en = await call('POST', '/admin/pools', { ...valid, name: 'B', username_template: 'u-{country} x' });
    expect(en.json().msg).toBe('The username template cannot contain U+0020: providers do not accept it in a username');
    for (const [patch, path, msg] of [
      [{ username_template: 'u-{region}' }, 'username_template', /Unknown placeholder \{region\}/],
      [{ username_template: 'u[-a-{country}[-b-{state}]]' }, 'username_template', /cannot be nested/],
      [{ username_template: '{user}{country}' }, 'username_template', /must be followed by a separator/],
      [{ username: 'ac@me' }, 'username', /account name cannot contain "@"/],
      [{ endpoints: [] }, 'endpoints', /required/],
      [{ endpoints: [{ host: 'a b', port: 80 }] }, 'endpoints.0.host', /Invalid value/],
      [{ endpoints: [{ host: 'h', port: 70000 }] }, 'endpoints.0.port', /from 1 to 65535/],
      [{ cost_per_gb_fen: -1 }, 'cost_per_gb_fen', /from 0 to 100000000/],
      [{ cost_per_gb_fen: 1.5 }, 'cost_per_gb_fen', /whole number/],
      [{ protocol: 'https' }, 'protocol', /Invalid value/],
      [{ password: '' }, 'password', /required/],
    ] as const) {
      const res = await call('POST', '/admin/pools', { ...valid, name: 'B', ...patch });
      expect([res.statusCode, res.json().data.issues?.[0]?.path], res.body).toEqual([400, path]);
      expect(res.json().msg).toMatch(msg);
    }
    expect(await poolCount()).toBe(count);
    expect(await readGatewayVersion(t.db.db)).toBe(version);
  });

  it('lists pools with filters; edits keep the password unless one is given; an operator call only', async () => {
    const b = await create({
      name: 'DC pool',
      kind: 'datacenter',
      protocol: 'socks5',
      endpoints: [{ host: 'dc.example.org', port: 1080 }],
    });
    const list = await call('GET', '/admin/pools?kind=datacenter');
    expect(list.json().data).toMatchObject({ total: 1, records: [{ id: b.id, name: 'DC pool' }] });
    expect((await call('GET', '/admin/pools?keyword=dc.example')).json().data.total).toBe(1);
    expect((await call('GET', '/admin/pools?keyword=%25')).json().data.total).toBe(0);
    expect((await call('GET', '/admin/pools?status=enabled')).json().data.total).toBe(0);
    expect((await call('GET', '/admin/pools?status=gone')).statusCode).toBe(400);
    expect((await call('GET', '/admin/pools', undefined, { token: ann.token })).statusCode).toBe(403);

    const [sealed] = await t.db.db.select().from(pools).where(eq(pools.id, b.id));
    const { password: _left, ...fields } = { ...valid, name: 'DC pool', kind: 'datacenter', protocol: 'socks5' };
    const edited = await call('PUT', `/admin/pools/${b.id}`, {
      ...fields,
      endpoints: [{ host: 'dc2.example.org', port: 1081 }],
      priority: 5,
      weight: 7,
      max_connections: 50,
    });
    expect(edited.json().data).toMatchObject({
      endpoints: [{ host: 'dc2.example.org', port: 1081 }],
      priority: 5,
      weight: 7,
      max_connections: 50,
    });
    expect((await t.db.db.select().from(pools).where(eq(pools.id, b.id)))[0].password).toBe(sealed.password);
    await call('PUT', `/admin/pools/${b.id}`, { ...fields, password: 'new-pass' });
    const [after] = await t.db.db.select().from(pools).where(eq(pools.id, b.id));
    expect(openPoolPassword(t.deps, after)).toBe('new-pass');
    expect((await call('PUT', '/admin/pools/999999', { ...fields })).statusCode).toBe(404);
    const clash = await call('PUT', `/admin/pools/${b.id}`, { ...fields, name: 'RESIDENTIAL A' });
    expect(clash.json().data.error).toBe('POOL_NAME_TAKEN');
  });

  it('refuses to delete an enabled pool (pause first, zh and en); deletes a paused one', async () => {
    const pool = await create({ name: 'To delete' });
    expect((await call('POST', `/admin/pools/${pool.id}/resume`)).json().data.status).toBe('enabled');
    const refused = await call('DELETE', `/admin/pools/${pool.id}`, undefined, { lang: 'zh' });
    expect([refused.statusCode, refused.json().code]).toEqual([409, 3202]);
    expect(refused.json().msg).toBe('上游池启用中，可能有代理正通过它连接，不能删除：请先暂停');
    const en = await call('DELETE', `/admin/pools/${pool.id}`);
    expect(en.json().msg).toBe(
      'The pool is enabled and proxies may be connected through it, so it cannot be deleted: pause it first',
    );
    expect(await poolCount()).toBeGreaterThan(0);
    expect((await call('POST', `/admin/pools/${pool.id}/pause`)).json().data.status).toBe('paused');
    // Pausing again changes nothing and answers the pool.
    expect((await call('POST', `/admin/pools/${pool.id}/pause`)).json().data.status).toBe('paused');
    const version = await readGatewayVersion(t.db.db);
    expect((await call('DELETE', `/admin/pools/${pool.id}`)).json().data).toEqual({ id: pool.id });
    expect(await readGatewayVersion(t.db.db)).toBe(version + 1);
    expect((await call('GET', `/admin/pools/${pool.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/admin/pools/${pool.id}`)).statusCode).toBe(404);
  });

  it("shows each pool's health across the gateways that reported in the last minute, and refuses to delete a paused pool still carrying connections", async () => {
    const pool = await create({ name: 'Reported on' });
    const now = new Date();
    const soon = new Date(now.getTime() + 30_000);
    // Two fresh reports (one skips the pool, one skips Germany) and one too old to count.
    await reportPoolHealth(t.db.db, pool.id, now, {
      openUntil: soon,
      figures: { attempts: 100, successes: 90, connectMsTotal: 9000, refusals: { timeout: 10 }, open: 3 },
    });
    await reportPoolHealth(t.db.db, pool.id, now, {
      openAreas: ['de'],
      figures: { attempts: 50, successes: 50, connectMsTotal: 3000, refusals: { 'area-not-served': 4 }, open: 0 },
    });
    await reportPoolHealth(t.db.db, pool.id, now, {
      ageMs: POOL_HEALTH_FRESH_MS + 5_000,
      figures: { attempts: 999, successes: 0, connectMsTotal: 0, refusals: { refused: 999 }, open: 99 },
    });
    const expected = {
      gateways: 2,
      attempts: 150,
      successes: 140,
      avg_connect_ms: 86,
      refusals: { timeout: 10, 'area-not-served': 4 },
      open_connections: 3,
      circuit_open_on: 1,
      open_areas: ['de'],
    };
    const listed = (await call('GET', '/admin/pools?keyword=Reported')).json().data.records;
    expect(listed.map((p: TPool) => p.health)).toEqual([expected]);
    expect((await call('GET', `/admin/pools/${pool.id}`)).json().data.health).toEqual(expected);

    // Paused, but a gateway still carries 3 connections opened before: not deleted yet.
    await call('POST', `/admin/pools/${pool.id}/pause`);
    const refused = await call('DELETE', `/admin/pools/${pool.id}`, undefined, { lang: 'zh' });
    expect([refused.statusCode, refused.json().code]).toEqual([409, ERRORS.POOL_IN_USE.code]);
    expect(refused.json().msg).toBe(ERRORS.POOL_IN_USE.zh.replace('{open}', '3'));
    expect(await poolCount()).toBeGreaterThan(0);
    await t.db.db.update(poolHealth).set({ open: 0 }).where(eq(poolHealth.poolId, pool.id));
    expect((await call('DELETE', `/admin/pools/${pool.id}`)).json().data).toEqual({ id: pool.id });
  });

  it('imports a coverage list by CSV (a bad line is named and changes nothing), or serves every country', async () => {
    const pool = await create({ name: 'Coverage' });
    const bad = await call(
      'POST',
      `/admin/pools/${pool.id}/coverage`,
      { mode: 'list', csv: 'us,California\nxx\nde,,Berlin\nus,california\n' },
      { lang: 'zh' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues.map((i: { message: string }) => i.message)).toEqual([
      '第 2 行：xx 不是 ISO 3166-1 两位国家代码',
      '第 3 行：州/省和城市只能包含字母、数字或 _，且城市须有所属州/省',
      '第 4 行：与第 1 行重复',
    ]);
    expect((await call('GET', `/admin/pools/${pool.id}`)).json().data.coverage_mode).toBe('all');
    const empty = await call('POST', `/admin/pools/${pool.id}/coverage`, { mode: 'list', csv: '# nothing\n' });
    expect(empty.json().msg).toBe('The list holds no area');

    const ok = await call('POST', `/admin/pools/${pool.id}/coverage`, {
      mode: 'list',
      csv: '# country,state,city\nUS,California,Los Angeles\nde\n\njp,13\n',
    });
    expect(ok.json().data).toMatchObject({
      coverage_mode: 'list',
      coverage_count: 3,
      coverage: [
        { country: 'us', state: 'california', city: 'losangeles' },
        { country: 'de', state: '', city: '' },
        { country: 'jp', state: '13', city: '' },
      ],
    });
    const all = await call('POST', `/admin/pools/${pool.id}/coverage`, { mode: 'all' });
    expect(all.json().data).toMatchObject({ coverage_mode: 'all', coverage: [] });
  });

  it("imports area spellings by CSV; a spelling holding the template's separator is refused with its line", async () => {
    const pool = await create({ name: 'Mapping' });
    const bad = await call('POST', `/admin/pools/${pool.id}/area-mapping`, {
      csv: 'us,california,,us_california\nus,new york,new york,new-york\nus,,,\n',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues.map((i: { message: string }) => i.message)).toEqual([
      'Line 2: the spelling new-york contains "-" (U+002D), which the template uses as a separator or providers do not accept',
      'Line 3: expected country,state,city,spelling',
    ]);
    expect((await call('GET', `/admin/pools/${pool.id}`)).json().data.area_mapping).toEqual([]);
    const ok = await call('POST', `/admin/pools/${pool.id}/area-mapping`, {
      csv: 'us,California,,us_california\nus,california,Los Angeles,los_angeles\ngb,,,UK\n',
    });
    expect(ok.json().data).toMatchObject({
      area_mapping_count: 3,
      area_mapping: [
        { country: 'us', state: 'california', city: '', spelling: 'us_california' },
        { country: 'us', state: 'california', city: 'losangeles', spelling: 'los_angeles' },
        { country: 'gb', state: '', city: '', spelling: 'UK' },
      ],
    });
    // A new template whose separators would split an imported spelling is refused.
    const { password: _p, ...fields } = { ...valid, name: 'Mapping' };
    const clash = await call('PUT', `/admin/pools/${pool.id}`, {
      ...fields,
      username_template: '{user}_cc-{country}[_st-{state}]',
    });
    expect([clash.statusCode, clash.json().data.issues[0].path]).toEqual([400, 'username_template']);
    expect(clash.json().msg).toMatch(/us_california contains "_"/);
    expect((await call('POST', `/admin/pools/${pool.id}/area-mapping`, { csv: '' })).json().data.area_mapping).toEqual(
      [],
    );
  });

  it('audits every change, never with the password', async () => {
    const rows = await t.db.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.route} LIKE 'adminPool%'`);
    const routes = new Set(rows.map((r) => r.route));
    for (const route of [
      'adminPoolCreate',
      'adminPoolUpdate',
      'adminPoolPause',
      'adminPoolResume',
      'adminPoolDelete',
      'adminPoolCoverage',
      'adminPoolAreaMapping',
    ])
      expect(routes, route).toContain(route);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('provider-pass');
    expect(text).not.toContain('new-pass');
    expect(text).toContain('[redacted]');
  });
  it("saves and lists the pool's exit IP header and session idle limit, empty as not stated, and refuses bad ones in zh and en", async () => {
    const pool = await create({ name: 'Sessions', exit_ip_header: ' X-Exit-IP ', session_idle_minutes: 30 });
    expect(pool).toMatchObject({ exit_ip_header: 'x-exit-ip', session_idle_minutes: 30 });
    const [row] = await t.db.db.select().from(pools).where(eq(pools.id, pool.id));
    expect(row).toMatchObject({ exitIpHeader: 'x-exit-ip', sessionIdleMinutes: 30 });
    const listed = (await call('GET', '/admin/pools?keyword=Sessions')).json().data.records;
    expect(listed).toEqual([expect.objectContaining({ exit_ip_header: 'x-exit-ip', session_idle_minutes: 30 })]);
    // Left out, or empty, is "not stated".
    const plain = await create({ name: 'No sessions said' });
    expect(plain).toMatchObject({ exit_ip_header: null, session_idle_minutes: null });

    const version = await readGatewayVersion(t.db.db);
    const same = { ...valid, name: 'Sessions' };
    const { id, ...fields } = {
      ...same,
      id: pool.id,
      exit_ip_header: "x-node_ip!#$%&'*+.^`|~9",
      session_idle_minutes: 1440,
    };
    const edited = await call('PUT', `/admin/pools/${id}`, fields);
    expect(edited.json().data, edited.body).toMatchObject({
      exit_ip_header: "x-node_ip!#$%&'*+.^`|~9",
      session_idle_minutes: 1440,
    });
    const cleared = await call('PUT', `/admin/pools/${id}`, {
      ...same,
      exit_ip_header: '',
      session_idle_minutes: null,
    });
    expect(cleared.json().data).toMatchObject({ exit_ip_header: null, session_idle_minutes: null });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    await call('PUT', `/admin/pools/${id}`, { ...same, exit_ip_header: 'x-exit-ip', session_idle_minutes: 30 });

    const headerMessage = 'The exit IP header must be a header name of at most 64 characters';
    for (const bad of ['x exit ip', 'x-exit-ip:', 'x(ip)', 'x-é', 'a'.repeat(65), 12]) {
      const res = await call('PUT', `/admin/pools/${id}`, { ...same, exit_ip_header: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().data.issues).toEqual([
        expect.objectContaining({ path: 'exit_ip_header', message: headerMessage }),
      ]);
    }
    const idleMessage = 'The session idle limit must be 1 to 1440 whole minutes';
    for (const bad of [0, 1441, 2.5, -1, '30']) {
      const res = await call('POST', '/admin/pools', { ...valid, name: 'Refused', session_idle_minutes: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().data.issues).toEqual([
        expect.objectContaining({ path: 'session_idle_minutes', message: idleMessage }),
      ]);
    }
    const zh = await call(
      'PUT',
      `/admin/pools/${id}`,
      { ...same, exit_ip_header: 'a b', session_idle_minutes: 0 },
      {
        lang: 'zh',
      },
    );
    expect(
      zh
        .json()
        .data.issues.map((i: { message: string }) => i.message)
        .sort(),
    ).toEqual(['出口 IP 响应头须为头名称，最多 64 个字符', '会话空闲上限为 1-1440 的整数分钟'].sort());
    // Nothing changed by the refusals.
    const [after] = await t.db.db.select().from(pools).where(eq(pools.id, id));
    expect(after).toMatchObject({ exitIpHeader: 'x-exit-ip', sessionIdleMinutes: 30 });
    expect((await t.db.db.select().from(pools).where(eq(pools.name, 'Refused'))).length).toBe(0);
  });
});
