import fc from 'fast-check';
import { SignJWT } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRouteDef } from '@proxy/contract';
import { createMemoryMailer, createTestApp } from '../../test/helpers';
import { ALL_ROUTES, callRoute, pathParams } from '../../test/route-calls';
import { arbitraryOf } from '../../test/zod-arbitraries';
import { postForm } from '../features/auth/auth-test-kit';
import {
  buyOk,
  createAdmin,
  createUser,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../features/proxies/proxies-test-kit';

// Generated from the route table: every route is tried with each kind of bad
// credential and, where it takes ids, with another user's ids. Expected answers
// follow from the route's declared auth, so a route added later is covered
// without editing this file.
describe('authorization matrix over every route', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let oper: TTestUser;
  let revokedToken: string;
  let expiredToken: string;
  let benApiKey: string;
  const annIds = { token: 0, ipEntry: 0, spiderRecord: 0, notification: 0 };
  const annSecrets: string[] = [];
  const covered = new Map<string, Set<string>>();

  function cover(kind: string, name: string) {
    if (!covered.has(kind)) covered.set(kind, new Set());
    covered.get(kind)!.add(name);
  }

  async function annRows(): Promise<string> {
    const rows = await t.db.db.execute(sql`
      SELECT json_build_object(
        'tokens', (SELECT json_agg(t ORDER BY t.id) FROM proxy_tokens t WHERE t.user_id = ${ann.userId}),
        'ip', (SELECT json_agg(e ORDER BY e.id) FROM ip_list_entries e WHERE e.user_id = ${ann.userId}),
        'spider', (SELECT json_agg(s ORDER BY s.id) FROM spider_records s WHERE s.user_id = ${ann.userId}),
        'notes', (SELECT json_agg(n ORDER BY n.id) FROM notifications n WHERE n.user_id = ${ann.userId}),
        'ledger', (SELECT json_agg(l ORDER BY l.id) FROM ledger_entries l WHERE l.user_id = ${ann.userId}),
        'user', (SELECT row_to_json(u) FROM users u WHERE u.id = ${ann.userId})
      ) AS snapshot`);
    return JSON.stringify((rows as unknown as { rows: unknown[] }).rows ?? rows);
  }

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    const carl = await createUser(t.app, mailer, 'carl');
    revokedToken = carl.token;
    expect((await request(t.app, 'POST', '/user/logout', { token: carl.token })).json().code).toBe(0);

    const bought = await buyOk(t.app, ann.token, '/token/static/ip', {
      network: 'HTTP',
      country_id: 'us',
      quantity: 1,
      days: 1,
    });
    annIds.token = bought.tokens[0].token_id;
    annSecrets.push(bought.tokens[0].username, bought.tokens[0].password);
    const entry = await postForm(
      t.app,
      '/user/add/ip/whitelist',
      { ip: '198.51.100.77', remark: 'ann-entry' },
      { token: ann.token },
    );
    annIds.ipEntry = entry.json().data.records[0].id;
    const spider = await request(t.app, 'POST', '/token/create/spider', {
      token: ann.token,
      body: { token_id: annIds.token, count: 1 },
    });
    annIds.spiderRecord = spider.json().data.id;
    const notes = await request(t.app, 'GET', '/user/notification/list', { token: ann.token });
    annIds.notification = notes.json().data.records[0].notification_id;
    const info = await request(t.app, 'GET', '/user/info', { token: ann.token });
    annSecrets.push(info.json().data.token);
    benApiKey = (await request(t.app, 'GET', '/user/info', { token: ben.token })).json().data.token;

    const past = Math.floor(Date.now() / 1000) - 3 * 86_400;
    expiredToken = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(ben.userId))
      .setIssuer('proxy-console-api')
      .setAudience('proxy-console')
      .setIssuedAt(past - 300_000)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(t.deps.config.jwtSecret));
  });
  afterAll(async () => {
    await t?.close();
  });

  // Calls of features not built yet answer 501 NOT_AVAILABLE (after the credential checks); any other 5xx is a defect.
  function expectNoServerError(res: { statusCode: number; body: string }, name: string) {
    if (res.statusCode === 501) expect(JSON.parse(res.body).data.error, name).toBe('NOT_AVAILABLE');
    else expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  }

  // A plausible input for a route (so a refusal is about who asks, not about the input's shape).
  function sampleInput(def: TRouteDef, seed: number): Record<string, unknown> {
    const arbitrary = arbitraryOf(def.input);
    const [sample] = arbitrary ? fc.sample(arbitrary, { seed, numRuns: 1 }) : [{}];
    const input = { ...((sample as Record<string, unknown>) ?? {}) };
    // An empty path segment names another route (or none): the matrix is about who may call this one.
    for (const param of pathParams(def)) if (input[param] === '') input[param] = '1';
    return input;
  }

  it('refuses every signed-in route without a token, with a malformed, an expired or a revoked one', async () => {
    for (const { name, def } of ALL_ROUTES) {
      const input = sampleInput(def, 1);
      if (def.auth === 'none') {
        expectNoServerError(await callRoute(t.app, def, input), name);
        cover('credentials', name);
        continue;
      }
      const none = await callRoute(t.app, def, input);
      expect([none.statusCode, none.json().code], `${name} without a token`).toEqual([401, 401]);
      const malformed = await callRoute(t.app, def, input, { headers: { authorization: 'Bearer not.a.jwt' } });
      expect([malformed.statusCode, malformed.json().code], `${name} malformed`).toEqual([401, 401]);
      const expired = await callRoute(t.app, def, input, { token: expiredToken });
      expect([expired.statusCode, expired.json().code], `${name} expired`).toEqual([401, 401]);
      const revoked = await callRoute(t.app, def, input, { token: revokedToken });
      expect([revoked.statusCode, revoked.json().code], `${name} revoked`).toEqual([401, -401]);
      cover('credentials', name);
    }
  });

  it('refuses admin routes to customers (403) and the personal API key outside /api/v1 (401)', async () => {
    for (const { name, def } of ALL_ROUTES) {
      const input = sampleInput(def, 2);
      if (def.auth === 'admin') {
        const res = await callRoute(t.app, def, input, { token: ben.token });
        expect([res.statusCode, res.json().code], `${name} as a customer`).toEqual([403, 403]);
        const asOperator = await callRoute(t.app, def, input, { token: oper.token });
        expect([401, 403], `${name} as an operator`).not.toContain(asOperator.statusCode);
      }
      if (def.auth === 'user' || def.auth === 'admin') {
        const res = await callRoute(t.app, def, input, { headers: { 'x-api-key': benApiKey } });
        expect(res.statusCode, `${name} with the API key`).toBe(401);
        const byQuery = await callRoute(t.app, def, { ...input, key: benApiKey });
        expect(byQuery.statusCode, `${name} with ?key=`).toBe(401);
      }
      if (def.auth === 'user-or-key') {
        const res = await callRoute(t.app, def, input, { headers: { 'x-api-key': benApiKey } });
        expect([401, 403], `${name} with the API key`).not.toContain(res.statusCode);
      }
      cover('roles', name);
    }
  });

  // Which of ann's rows an id field names, by the route's path.
  function annIdFor(def: TRouteDef, field: string): number {
    if (field === 'notification_id') return annIds.notification;
    if (def.path.startsWith('/user/remove/ip')) return annIds.ipEntry;
    if (def.path.includes('/spider/record/file')) return annIds.spiderRecord;
    return annIds.token;
  }
  const ID_FIELDS = ['id', 'token_id', 'token_ids', 'notification_id', 'proxyId'];

  it("never shows or changes another user's rows through any id-taking route", async () => {
    const before = await annRows();
    let tried = 0;
    for (const { name, def } of ALL_ROUTES) {
      if (def.auth === 'none' || def.auth === 'admin') {
        cover('ids', name);
        continue;
      }
      const fields = [
        ...new Set([...pathParams(def), ...Object.keys(sampleInput(def, 3)).filter((f) => ID_FIELDS.includes(f))]),
      ];
      const shapeFields = Object.keys((def.input as unknown as { shape?: object }).shape ?? {});
      for (const f of ID_FIELDS) if (shapeFields.includes(f) && !fields.includes(f)) fields.push(f);
      if (fields.length > 0) {
        for (const seed of [3, 4, 5]) {
          const input = sampleInput(def, seed);
          for (const field of fields)
            input[field] =
              field === 'token_ids'
                ? def.body === 'none'
                  ? String(annIdFor(def, field))
                  : [annIdFor(def, field)]
                : String(annIdFor(def, field));
          if (def.body === 'json')
            for (const field of fields)
              if (field !== 'token_ids' && !pathParams(def).includes(field)) input[field] = annIdFor(def, field);
          const res = await callRoute(t.app, def, input, { token: ben.token });
          tried += 1;
          expectNoServerError(res, name);
          for (const secret of annSecrets)
            expect(res.body.includes(secret), `${name} leaked ann's data: ${res.body.slice(0, 200)}`).toBe(false);
          const body = String(res.headers['content-type']).includes('json') ? res.json() : undefined;
          if (body?.code === 0 && body.data && typeof body.data === 'object' && 'failed' in body.data) {
            expect(body.data.failed, `${name} acted on ann's rows`).toBe(body.data.total);
          }
        }
      }
      cover('ids', name);
    }
    expect(tried).toBeGreaterThan(20);
    expect(await annRows()).toBe(before);
  });

  it('covers every route of the table in each part of the matrix', () => {
    const names = ALL_ROUTES.map((r) => r.name).sort();
    for (const kind of ['credentials', 'roles', 'ids'])
      expect([...(covered.get(kind) ?? [])].sort(), kind).toEqual(names);
  });
});
