import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, pools } from '@proxy/db';
import { createTestDatabase, FAKE_POOL_TEXTS, startFakePool, type TFakePool } from '@proxy/db/testing';
import { buildApp } from '../../app';
import { captureLog, createMemoryMailer, createTestConfig } from '../../../test/helpers';
import { startLocalEcho } from '../inventory/inventory-probe-test-kit';
import { createAdmin, request, type TTestUser } from '../proxies/proxies-test-kit';

// The check of a pool, against two fake pools with different grammars and spellings, through the same IP echo the
// inventory probe uses; and the pool's password in no answer, audit entry, log line, check output or error.
describe('checking an upstream pool', () => {
  const password = 'Pool-Pw-recognisable-5513';
  const { stream, lines } = captureLog();
  const mailer = createMemoryMailer();
  const answers: string[] = [];
  let built: Awaited<ReturnType<typeof buildApp>>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let echo: Awaited<ReturnType<typeof startLocalEcho>>;
  let oxy: TFakePool;
  let deco: TFakePool;
  let dead: number;
  let oper: TTestUser;
  const id: Record<string, number> = {};

  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: object, lang = 'en') => {
    const res = await request(built.app, method, path, { token: oper.token, body, lang });
    answers.push(res.body);
    return res;
  };
  const check = async (pool: number, body: object, lang = 'en') =>
    (await call('POST', `/admin/pools/${pool}/check`, body, lang)).json();

  const oxyTemplate = 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]';
  const decoTemplate = 'user-{user}-country-{country}[-city-{city}][-session-{session:8}-sessionduration-{minutes}]';

  beforeAll(async () => {
    echo = await startLocalEcho({ '127.0.1.1': '8.8.8.8', '127.0.1.2': '8.8.4.4' });
    oxy = await startFakePool({
      protocol: 'http-connect',
      template: oxyTemplate,
      user: 'acme',
      password,
      areas: [{ country: 'US', state: 'us_california' }, { country: 'DE' }],
      exitAddresses: ['127.0.1.1', '127.0.1.2'],
    });
    deco = await startFakePool({
      protocol: 'socks5',
      template: decoTemplate,
      user: 'sp1',
      password,
      areas: [{ country: 'jp', city: 'tokyo' }],
      areaRefusal: { http: 407, socks: 0x04 },
      exitAddresses: ['127.0.2.1'],
    });
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    dead = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    database = await createTestDatabase();
    built = await buildApp({
      config: createTestConfig({ INVENTORY_PROBE_URL: echo.url, INVENTORY_PROBE_TIMEOUT_MS: '5000' }),
      database,
      mailer,
      logger: { level: 'debug', stream },
    });
    await built.app.ready();
    oper = await createAdmin(built.app, built.deps, mailer, 'oper');
    const created = async (body: object) => {
      const res = await call('POST', '/admin/pools', body);
      expect(res.json().code, res.body).toBe(0);
      return res.json().data.id as number;
    };
    id.oxy = await created({
      name: 'Oxy-like',
      kind: 'residential',
      protocol: 'http-connect',
      // The first endpoint is down: the check goes on to the next.
      endpoints: [
        { host: '127.0.0.1', port: dead },
        { host: '127.0.0.1', port: oxy.port },
      ],
      username: 'acme',
      password,
      username_template: oxyTemplate,
      area_case: 'upper',
    });
    await call('POST', `/admin/pools/${id.oxy}/area-mapping`, { csv: 'us,california,,us_california\n' });
    id.deco = await created({
      name: 'Decodo-like',
      kind: 'residential',
      protocol: 'socks5',
      endpoints: [{ host: '127.0.0.1', port: deco.port }],
      username: 'sp1',
      password,
      username_template: decoTemplate,
      area_case: 'lower',
    });
  });
  afterAll(async () => {
    await built?.app.close();
    await database?.close();
    await echo?.close();
    await oxy?.close();
    await deco?.close();
  });

  it('HTTP CONNECT pool: the exit IP the echo saw and its country, what the provider said, the latency', async () => {
    const result = await check(id.oxy, { country: 'us', state: 'California' });
    expect(result.code).toBe(0);
    expect(result.data).toMatchObject({
      outcome: 'ok',
      username: 'customer-acme-cc-US-st-us_california',
      area: 'us/california',
      is_covered: true,
      session_id: null,
      endpoint: `127.0.0.1:${oxy.port}`,
      attempts: [
        { endpoint: `127.0.0.1:${dead}`, outcome: 'unreachable', detail: expect.stringContaining('ECONNREFUSED') },
        { endpoint: `127.0.0.1:${oxy.port}`, outcome: 'connected' },
      ],
      exit_ip: expect.stringMatching(/^8\.8\.(8\.8|4\.4)$/),
      exit_country: 'us',
      provider_exit_ip: expect.stringMatching(/^127\.0\.1\.[12]$/),
      provider_exit_country: 'US',
      provider_status: null,
      connect_ms: expect.any(Number),
      latency_ms: expect.any(Number),
    });
    expect(oxy.tunnels.at(-1)).toMatchObject({ country: 'US', state: 'us_california' });
    const pool = (await call('GET', `/admin/pools/${id.oxy}`)).json().data;
    expect(pool.last_check).toMatchObject({ outcome: 'ok', area: 'us/california', exit_country: 'us' });
  });

  it('a session label keeps the exit: the same label the same pool session id, another label its own', async () => {
    const first = (await check(id.oxy, { country: 'de', session: 'abc', minutes: 30 })).data;
    expect(first.session_id).toMatch(/^[a-z0-9]{12}$/);
    expect(first.username).toBe(`customer-acme-cc-DE-sessid-${first.session_id}-sesstime-30`);
    for (let i = 0; i < 3; i++) {
      const again = (await check(id.oxy, { country: 'de', session: 'abc', minutes: 30 })).data;
      expect([again.session_id, again.exit_ip]).toEqual([first.session_id, first.exit_ip]);
    }
    const other = (await check(id.oxy, { country: 'de', session: 'xyz' })).data;
    expect(other.session_id).not.toBe(first.session_id);
    expect(other.username).toMatch(/-sesstime-10$/);
  });

  it("answers the provider's exact refusal: an area it does not serve, wrong credentials", async () => {
    const area = (await check(id.oxy, { country: 'fr' })).data;
    expect(area).toMatchObject({
      outcome: 'area-not-served',
      username: 'customer-acme-cc-FR',
      is_covered: true,
      provider_status: 'HTTP 403 Forbidden',
      provider_detail: FAKE_POOL_TEXTS.areaNotServed,
      exit_ip: null,
    });
    const socksArea = (await check(id.deco, { country: 'jp', state: 'kanto', city: 'osaka' })).data;
    expect(socksArea).toMatchObject({
      outcome: 'refused',
      username: 'user-sp1-country-jp-city-osaka',
      provider_status: 'SOCKS5 reply 4 (host unreachable)',
    });
    const ok = (await check(id.deco, { country: 'jp', state: 'kanto', city: 'tokyo', session: 'S1' })).data;
    expect(ok).toMatchObject({
      outcome: 'ok',
      exit_ip: '127.0.2.1',
      provider_exit_ip: '127.0.2.1',
      exit_country: null,
    });
    expect(ok.username).toMatch(/^user-sp1-country-jp-city-tokyo-session-[a-z0-9]{8}-sessionduration-10$/);

    const [row] = await database.db.select().from(pools).where(eq(pools.id, id.deco));
    const { password: _p, ...rest } = {
      name: 'Decodo-like',
      kind: 'residential',
      protocol: 'socks5',
      endpoints: [{ host: '127.0.0.1', port: deco.port }],
      username: 'sp1',
      password: '',
      username_template: decoTemplate,
    };
    await call('PUT', `/admin/pools/${id.deco}`, { ...rest, password: 'wrong-one' });
    const wrong = (await check(id.deco, { country: 'jp' })).data;
    expect(wrong).toMatchObject({
      outcome: 'bad-credentials',
      provider_status: 'SOCKS5 authentication failed (RFC 1929)',
    });
    await database.db.update(pools).set({ password: row.password }).where(eq(pools.id, id.deco));
    expect((await check(id.deco, { country: 'jp' })).data.outcome).toBe('ok');
  });

  it('an area the template cannot spell, or bad input, is refused in zh and en; never a 5xx', async () => {
    // A template requiring {state} cannot check a whole country.
    const { password: _p, ...fields } = {
      name: 'Needs state',
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [{ host: '127.0.0.1', port: oxy.port }],
      username: 'acme',
      password,
      username_template: 'customer-{user}-cc-{country}-st-{state}',
    };
    const created = await call('POST', '/admin/pools', { ...fields, password });
    const needs = await check(created.json().data.id, { country: 'us' }, 'zh');
    expect(needs).toMatchObject({ code: 3203 });
    expect(needs.msg).toBe('模板中必填的占位符 {state} 在此地区没有取值：请把它放进可选段 [...]，或检查更具体的地区');
    // A slug holding a separator of the template ("_" here) would be read apart by the provider.
    const underscored = await call('POST', '/admin/pools', {
      ...fields,
      name: 'Underscores',
      password,
      username_template: '{user}_country-{country}[_city-{city}]',
    });
    const split = await check(underscored.json().data.id, { country: 'us', state: 'ny', city: 'new_york' });
    expect(split).toMatchObject({ code: 3204, data: { error: 'POOL_USERNAME_SEPARATOR' } });
    expect(split.msg).toBe(
      'This area spells {city} as new_york, which holds "_": the provider would misread the username. Import a spelling for the area',
    );
    for (const [body, path] of [
      [{ country: 'zz' }, 'country'],
      [{ country: 'usa' }, 'country'],
      [{ country: 'us', city: 'paris' }, 'city'],
      [{ country: 'us', session: 'a-b' }, 'session'],
      [{ country: 'us', session: 'a', minutes: 0 }, 'minutes'],
    ] as const) {
      const res = await call('POST', `/admin/pools/${id.oxy}/check`, body);
      expect([res.statusCode, res.json().data.issues?.[0]?.path], res.body).toEqual([400, path]);
    }
    expect((await call('POST', '/admin/pools/999999/check', { country: 'us' })).statusCode).toBe(404);
  });

  it('never shows the password: not in an answer, an audit entry, a log line or a check output', async () => {
    const audit = JSON.stringify(await database.db.select().from(auditEntries));
    expect(audit).toContain('adminPoolCheck');
    expect(audit).toContain('"check":"ok"');
    const log = lines.join('');
    expect(log).toContain('/api/admin/pools');
    for (const text of [...answers, audit, log]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(Buffer.from(`acme:${password}`).toString('base64'));
    }
    expect(answers.length).toBeGreaterThan(15);
  });
});
