import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TMemoryMailer } from '../../../test/helpers';
import { ROUTE_GROUPS, type TRouteDef } from '@proxy/contract';
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

  it('answers 501 NOT_AVAILABLE for calls not built yet, in the Lang language', async (ctx) => {
    // A signed-in call of a group no feature answers yet (none left: nothing to check).
    const handlers = createFeatureHandlers(t.deps);
    const unbuilt = Object.entries(ROUTE_GROUPS)
      .filter(([group]) => !(group in handlers))
      .flatMap(([, routes]) => Object.values(routes as Record<string, TRouteDef>))
      .find((def) => def.auth === 'user');
    if (!unbuilt) ctx.skip();
    const token = await registerUser(t.app, t.mailer as TMemoryMailer, { email: 'nia@example.com', username: 'nia' });
    const url = `/api${unbuilt!.path.replace(/:\w+/g, '1')}`;
    const res = await t.app.inject({
      method: unbuilt!.method,
      url,
      headers: { lang: 'zh-CN', authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toEqual({ code: 501, msg: '该功能暂未开放', data: { error: 'NOT_AVAILABLE' } });
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
