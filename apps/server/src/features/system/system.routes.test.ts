import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TMemoryMailer, type TTestApp } from '../../../test/helpers';
import { API_PREFIX, ROUTE_GROUPS, type TRouteDef } from '@proxy/contract';
import { registerUser } from '../auth/auth-test-kit';
import { createFeatureHandlers } from '../index';

describe('API core', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { status: 'ok' } });
  });

  it('serves the OpenAPI document of the route table', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/user/login'].post).toBeTruthy();
  });

  it('documents every route of the table under its method, and nothing else', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.has(method))
          .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
      )
      .sort();
    // The table as the contract declares it, group by group; a path parameter :name is written {name}.
    const declared = Object.values(ROUTE_GROUPS)
      .flatMap((routes) => Object.entries(routes as Record<string, TRouteDef>))
      .map(([name, def]) => `${def.method} ${API_PREFIX}${def.path.replace(/:(\w+)/g, '{$1}')} ${name}`)
      .sort();
    expect(declared.length).toBeGreaterThan(100);
    expect(documented).toEqual(declared);
  });

  it('answers 401 for protected calls without a token, before anything else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { lang: 'en' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, data: { error: 'UNAUTHORIZED' } });
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: 'Bearer abc.def.ghi' },
    });
    expect(forged.json().code).toBe(401);
  });

  it('answers unknown API paths with 404 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(404);
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('refuses cross-origin requests from origins not allowed', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('calls of a group no feature answers yet', () => {
  // Every group has its feature now: this app is built without the site's, as a group not built yet would be.
  const GROUP = 'site';
  const routes = Object.entries(ROUTE_GROUPS[GROUP] as Record<string, TRouteDef>);
  let t: TTestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({
      handlers: (deps) => {
        const { [GROUP]: _left, ...others } = createFeatureHandlers(deps);
        return others;
      },
    });
    token = await registerUser(t.app, t.mailer as TMemoryMailer, { email: 'nia@example.com', username: 'nia' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answer 501 NOT_AVAILABLE in the Lang language, after the sign-in check; other groups answer as before', async () => {
    const open = routes.filter(([, def]) => def.auth === 'none');
    const signedIn = routes.filter(([, def]) => def.auth === 'user');
    expect(open.length).toBeGreaterThan(0);
    expect(signedIn.length).toBeGreaterThan(0);
    const call = (def: TRouteDef, headers: Record<string, string>) =>
      t.app.inject({ method: def.method, url: `${API_PREFIX}${def.path.replace(/:\w+/g, '1')}`, headers });
    for (const [name, def] of [...open, ...signedIn]) {
      const auth: Record<string, string> = def.auth === 'none' ? {} : { authorization: `Bearer ${token}` };
      const zh = await call(def, { lang: 'zh-CN', ...auth });
      expect([name, zh.statusCode, zh.json()]).toEqual([
        name,
        501,
        { code: 501, msg: '该功能暂未开放', data: { error: 'NOT_AVAILABLE' } },
      ]);
      const en = await call(def, { lang: 'en', ...auth });
      expect([name, en.statusCode, en.json()]).toEqual([
        name,
        501,
        { code: 501, msg: 'This feature is not available yet', data: { error: 'NOT_AVAILABLE' } },
      ]);
    }
    // Signed out, a signed-in call is refused for that first.
    const [, first] = signedIn[0];
    expect((await call(first, { lang: 'en' })).json()).toMatchObject({ code: 401, data: { error: 'UNAUTHORIZED' } });
    // Only the group left out: the others are answered by their features.
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(info.json()).toMatchObject({ code: 0, data: { email: 'nia@example.com' } });
  });
});

describe('cross-origin requests', () => {
  const PUBLIC = 'https://console.example.com';
  const LISTED = ['https://partner.example', 'http://127.0.0.1:5173'];
  let t: TTestApp;
  beforeAll(async () => {
    // Listed with the spaces and the empty item people leave in a comma-separated setting.
    t = await createTestApp({ config: { PUBLIC_URL: PUBLIC, CORS_ORIGINS: ` ${LISTED[0]} ,${LISTED[1]},` } });
  });
  afterAll(async () => {
    await t.close();
  });

  const preflight = (origin: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/info',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, lang',
      },
    });
  const actual = (origin: string) => t.app.inject({ method: 'GET', url: '/api/health', headers: { origin } });

  it('let the public URL and the listed origins call the API, without credentials', async () => {
    for (const origin of [PUBLIC, ...LISTED]) {
      const pre = await preflight(origin);
      expect([origin, pre.statusCode]).toEqual([origin, 204]);
      expect(pre.headers['access-control-allow-origin']).toBe(origin);
      expect(pre.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
      expect(pre.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, Lang, X-API-Key, Idempotency-Key',
      );
      // Bearer tokens, never cookies: the browser sends no credentials.
      expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
      const res = await actual(origin);
      expect([origin, res.statusCode]).toEqual([origin, 200]);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
    }
  });

  it('give any other origin no permission, however close to a listed one', async () => {
    for (const origin of [
      'https://evil.example',
      'http://partner.example',
      'https://partner.example.evil.example',
      'https://console.example.com:8443',
      'null',
    ]) {
      const pre = await preflight(origin);
      expect([origin, pre.headers['access-control-allow-origin']]).toEqual([origin, undefined]);
      expect(pre.headers['access-control-allow-methods']).toBeUndefined();
      const res = await actual(origin);
      expect([origin, res.headers['access-control-allow-origin']]).toEqual([origin, undefined]);
    }
  });
});
