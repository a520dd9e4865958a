import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, createTestApp } from '../../test/helpers';
import { postForm } from '../features/auth/auth-test-kit';
import {
  balanceFen,
  buyOk,
  createUser,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../features/proxies/proxies-test-kit';

// What every route gets from the request pipeline (routing.ts, error-handler.ts, app.ts):
// control characters refused, numbers parsed strictly, messages from the catalogue in
// the caller's language, no caching of API answers, and the envelope on every answer.
describe('request pipeline', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let tokenId: number;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    tokenId = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a NUL byte or another control character in any string with 400 in the caller's language", async () => {
    const attempts = [
      () => postForm(t.app, '/user/login', { email: 'a\u0000b', password: 'whatever1' }, { lang: 'zh' }),
      () =>
        postForm(
          t.app,
          '/user/add/ip/whitelist',
          { ip: '1.2.3.4', remark: 'x\u0000' },
          { token: ann.token, lang: 'zh' },
        ),
      () =>
        request(t.app, 'PUT', `/token/remark/${tokenId}`, {
          token: ann.token,
          body: { token_id: tokenId, remark: 'a\u0000b' },
          lang: 'zh',
        }),
      () => request(t.app, 'GET', '/token/list/isp/static?keyword=a%00b', { token: ann.token, lang: 'zh' }),
      () => request(t.app, 'GET', '/token/export?keyword=%07', { token: ann.token, lang: 'zh' }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toMatch(/不能包含控制字符/);
    }
    const list = await request(t.app, 'GET', '/user/ip/whitelist', { token: ann.token });
    expect(list.json().data.total).toBe(0);
    // Tabs and line breaks are text, not control input.
    const remark = await request(t.app, 'PUT', `/token/remark/${tokenId}`, {
      token: ann.token,
      body: { token_id: tokenId, remark: 'line one\tand\ntwo' },
    });
    expect(remark.json().code).toBe(0);
  });

  it('takes JSON numbers in JSON bodies, never coerced booleans, arrays or numeric strings; nothing is debited', async () => {
    const before = await balanceFen(t.deps, ann.userId);
    for (const days of [true, [1], '0x1', '1e0', '1', null, 1.5, -1]) {
      const res = await request(t.app, 'POST', '/token/static/ip', {
        token: ann.token,
        body: { network: 'HTTP', country_id: 'us', quantity: 1, days },
      });
      expect(res.statusCode, `days ${JSON.stringify(days)}`).toBe(400);
    }
    const quantity = await request(t.app, 'POST', '/token/static/ip', {
      token: ann.token,
      body: { network: 'HTTP', country_id: 'us', quantity: '1', days: 1 },
    });
    expect(quantity.statusCode).toBe(400);
    const autoRenew = await request(t.app, 'POST', '/token/ip/auto/renew', {
      token: ann.token,
      body: { token_ids: [tokenId], auto_renew: 'true' },
    });
    expect(autoRenew.statusCode).toBe(400);
    expect(await balanceFen(t.deps, ann.userId)).toBe(before);
  });

  it('takes path and query integers in canonical decimal digits only', async () => {
    for (const id of ['0x6', '6e0', '06', '%206', '6.0', '-6', '+6', '99999999999999999999']) {
      const res = await request(t.app, 'DELETE', `/token/${id}`, { token: ann.token, lang: 'en' });
      expect(res.statusCode, id).toBe(400);
    }
    for (const page of ['0', '01', '1e1', 'abc', '0x1', '']) {
      const res = await request(t.app, 'GET', `/token/list/isp/static?page=${page}`, { token: ann.token });
      expect(res.statusCode, `page=${page}`).toBe(400);
    }
    const list = await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=5', { token: ann.token });
    expect(list.json().data).toMatchObject({ total: 1, page: 1, page_size: 5 });
    const tokens = await request(t.app, 'GET', '/token/list/isp/static', { token: ann.token });
    expect(tokens.json().data.records[0].status).toBe('enabled');
  });

  it('answers validation failures with catalogue messages in the request language, naming the field', async () => {
    const zh = await request(t.app, 'GET', '/token/list/isp/static?page=0', { token: ann.token, lang: 'zh' });
    expect(zh.json().msg).toBe('页码须为不小于 1 的整数');
    expect(zh.json().data.issues).toEqual([{ path: 'page', message: '页码须为不小于 1 的整数' }]);
    const id = await request(t.app, 'GET', '/token/test/abc', { token: ann.token, lang: 'zh' });
    expect(id.json().msg).toBe('id: 须为十进制整数（不含前导零、空格或指数）');
    const en = await request(t.app, 'GET', '/token/test/abc', { token: ann.token, lang: 'en' });
    expect(en.json().msg).toBe('id: Must be a whole number in plain decimal digits');
    const missing = await request(t.app, 'POST', '/token/static/ip', {
      token: ann.token,
      body: { country_id: 'us', quantity: 1, days: 1 },
      lang: 'en',
    });
    expect(missing.json().data.issues[0]).toEqual({ path: 'network', message: 'Invalid value' });
    expect(missing.json().msg).toBe('network: Invalid value');
    for (const res of [zh, id, en, missing])
      expect(res.json().msg).not.toMatch(/expected|received|Too small|Invalid input/);
  });

  it('binds an Idempotency-Key to the request it was first used with', async () => {
    const headers = { 'idempotency-key': 'key-bound-1' };
    const body = { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };
    const first = await request(t.app, 'POST', '/token/variable/ip', { token: ann.token, body, headers });
    expect(first.json().code).toBe(0);
    const balance = await balanceFen(t.deps, ann.userId);
    const replay = await request(t.app, 'POST', '/token/variable/ip', { token: ann.token, body, headers });
    expect(replay.json().data.order_id).toBe(first.json().data.order_id);
    // The same price on another route, or another field, is another request.
    const otherRoute = await request(t.app, 'POST', '/token/static/ip', {
      token: ann.token,
      body,
      headers,
      lang: 'en',
    });
    expect(otherRoute.statusCode).toBe(409);
    expect(otherRoute.json().msg).toMatch(/already used for a different request/);
    const otherNetwork = await request(t.app, 'POST', '/token/variable/ip', {
      token: ann.token,
      body: { ...body, network: 'SOCKS5' },
      headers,
    });
    expect(otherNetwork.statusCode).toBe(409);
    expect(await balanceFen(t.deps, ann.userId)).toBe(balance);
  });

  it('marks every API answer no-store, failures included', async () => {
    for (const res of [
      await request(t.app, 'GET', '/user/info', { token: ann.token }),
      await request(t.app, 'GET', '/token/list/isp/static', { token: ann.token }),
      await request(t.app, 'GET', '/user/info'),
      await request(t.app, 'GET', '/token/test/abc', { token: ann.token }),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("refuses JSON nested deeper than the bound with 400 in the caller's language, at any depth, on every JSON route", async () => {
    const nested = (depth: number) =>
      `{"token_id":${tokenId},"remark":"x","note":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    for (const depth of [65, 1_000, 8_000]) {
      for (const lang of ['zh', 'en'] as const) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/token/remark/${tokenId}`,
          headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json', lang },
          payload: nested(depth),
        });
        expect(res.statusCode, `depth ${depth}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().msg).toBe(
          lang === 'zh' ? '请求内容嵌套过深（最多 32 层）' : 'The request is nested too deeply (at most 32 levels)',
        );
      }
    }
    // Within the bound the input reaches the schema, which drops the unknown field.
    const shallow = await t.app.inject({
      method: 'PUT',
      url: `/api/token/remark/${tokenId}`,
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
      payload: nested(30),
    });
    expect(shallow.json().code, shallow.body).toBe(0);
  });

  it('answers a path parameter too long for the router (414) in the envelope', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const res = await request(t.app, 'PUT', `/token/remark/${'9'.repeat(400)}`, {
        token: ann.token,
        body: { remark: 'x' },
        lang,
      });
      expect(res.statusCode).toBe(414);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        code: 414,
        msg: lang === 'zh' ? '请求地址过长' : 'The request URL is too long',
        data: { error: 'URI_TOO_LONG' },
      });
    }
  });

  it("answers the framework's own refusals in the envelope: 404, 413, 415 and 431", async () => {
    const notFound = await request(t.app, 'GET', '/no/such/call', { lang: 'en' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toMatchObject({ code: 404, data: { error: 'NOT_FOUND' } });
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/api/token/static/ip',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
      payload: `{"x":"${'a'.repeat(300_000)}"}`,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 413, data: { error: 'PAYLOAD_TOO_LARGE' } });
    const badType = await t.app.inject({
      method: 'POST',
      url: '/api/token/static/ip',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'text/xml' },
      payload: '<x/>',
    });
    expect(badType.statusCode).toBe(415);
    expect(badType.json()).toMatchObject({ code: 415, data: { error: 'UNSUPPORTED_MEDIA_TYPE' } });

    // A 20 KB query string never reaches Fastify: Node's parser refuses it, on a real socket.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as net.AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`GET /api/token/list/isp/static?keyword=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 431,
      data: { error: 'HEADERS_TOO_LARGE' },
    });
  });
});
