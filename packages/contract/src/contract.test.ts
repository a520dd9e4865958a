import { describe, expect, it } from 'vitest';
import {
  ERRORS,
  ROUTES,
  ROUTE_GROUPS,
  defineRoute,
  mergeRouteGroups,
  VALIDATION_MESSAGES,
  ZLoginForm,
  ZRegisterForm,
  ZResetPasswordForm,
  buildOpenApi,
  deriveRoles,
  fenToYuan,
  formatFen,
  resolveLang,
  yuanToFen,
  zEmail,
} from './index';

const goodRegister = {
  username: 'alice',
  email: 'Alice@Example.com ',
  password: 'correct horse',
  confirm_password: 'correct horse',
  code: '123456',
};

function issueKeys(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);
}

describe('register form (spec section 5)', () => {
  it('accepts a valid form and normalises the e-mail', () => {
    const r = ZRegisterForm.safeParse(goodRegister);
    expect(r.success).toBe(true);
    expect(r.data?.email).toBe('alice@example.com');
  });
  it.each([
    [{ username: 'a' }, 'username:usernameLength'],
    [{ username: 'a'.repeat(21) }, 'username:usernameLength'],
    [{ username: 'has space' }, 'username:usernameChars'],
    [{ password: 'short', confirm_password: 'short' }, 'password:passwordMin'],
    [{ confirm_password: 'different!' }, 'confirm_password:passwordMismatch'],
    [{ code: '12345' }, 'code:codeFormat'],
    [{ code: '12345a' }, 'code:codeFormat'],
    [{ email: 'not-an-email' }, 'email:emailInvalid'],
    [{ invite_code: 'bad code!' }, 'invite_code:inviteFormat'],
  ])('rejects %j with %s', (patch, expected) => {
    expect(issueKeys(ZRegisterForm.safeParse({ ...goodRegister, ...patch }))).toContain(expected);
  });
  it('accepts usernames of exactly 2 and 20 characters', () => {
    expect(ZRegisterForm.safeParse({ ...goodRegister, username: 'ab' }).success).toBe(true);
    expect(ZRegisterForm.safeParse({ ...goodRegister, username: '用'.repeat(20) }).success).toBe(true);
  });
});

describe('reset and login forms', () => {
  it('reset needs matching passwords of 8+', () => {
    const base = { email: 'a@b.co', code: '000000', password: '12345678', confirm_password: '12345678' };
    expect(ZResetPasswordForm.safeParse(base).success).toBe(true);
    expect(issueKeys(ZResetPasswordForm.safeParse({ ...base, confirm_password: '12345679' }))).toContain(
      'confirm_password:passwordMismatch',
    );
    expect(issueKeys(ZResetPasswordForm.safeParse({ ...base, email: '' }))).toContain('email:required');
  });
  it('login asks for username and password when missing', () => {
    expect(issueKeys(ZLoginForm.safeParse({ email: '', password: '' }))).toEqual([
      'email:loginRequired',
      'password:loginRequired',
    ]);
    expect(ZLoginForm.parse({ email: 'x', password: 'y', remember: 'true' }).remember).toBe(true);
    expect(ZLoginForm.parse({ email: 'x', password: 'y' }).remember).toBe(false);
  });
  it('every message key a schema can produce has both languages', () => {
    for (const v of Object.values(VALIDATION_MESSAGES)) {
      expect(v.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(v.en).not.toMatch(/[\u4e00-\u9fff]/);
    }
    expect(zEmail.safeParse('x@y.co').success).toBe(true);
  });
});

describe('errors, money, language', () => {
  it('error codes are unique and each has both messages', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(ERRORS.SESSION_REVOKED.code).toBe(-401);
    for (const e of Object.values(ERRORS)) expect(e.zh && e.en).toBeTruthy();
  });
  it('fen and yuan convert exactly', () => {
    expect(fenToYuan(1500)).toBe(15);
    expect(fenToYuan(1)).toBe(0.01);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen(0.29)).toBe(29);
    expect(yuanToFen('1234.56')).toBe(123456);
    expect(() => yuanToFen('1.234')).toThrow();
    expect(formatFen(123405)).toBe('¥1234.05');
    expect(formatFen(-5, { symbol: false })).toBe('-0.05');
  });
  it('language rule: zh when the tag contains zh', () => {
    expect(resolveLang('zh-CN')).toBe('zh');
    expect(resolveLang('ZH')).toBe('zh');
    expect(resolveLang('en-US')).toBe('en');
    expect(resolveLang(undefined)).toBe('en');
  });
  it('role user only above 1 yuan of total recharge', () => {
    expect(deriveRoles(1)).toEqual([]);
    expect(deriveRoles(1.01)).toEqual(['user']);
  });
});

describe('route table', () => {
  it('has every call of spec section 7 once', () => {
    const keys = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const must of [
      'POST /user/login',
      'POST /user/google/verify',
      'POST /user/github/verify',
      'POST /user/register',
      'GET /user/refresh_token',
      'GET /user/info',
      'GET /user/notification/list',
      'POST /user/notification/mark_as_read',
      'GET /user/statistics/amount',
      'POST /user/code',
      'POST /user/reset_password',
      'GET /user/ip/whitelist',
      'POST /user/add/ip/whitelist',
      'GET /user/ip/blacklist',
      'POST /user/add/ip/blacklist',
      'DELETE /user/remove/ip/:id',
      'GET /token/list/static/traffic',
      'GET /token/list/static/ip',
      'GET /token/list/variable/traffic',
      'GET /token/list/variable/ip',
      'GET /token/list/isp/dynamic',
      'GET /token/list/isp/static',
      'GET /token/list/idc/static',
      'GET /token/test/:id',
      'PUT /token/:id',
      'DELETE /token/:id',
      'PUT /token/reset/:id',
      'DELETE /token/batch',
      'PUT /token/batch/restore',
      'GET /token/session/traffic',
      'GET /token/list/area/countries',
      'GET /token/list/area/state',
      'GET /token/list/area/city',
      'GET /token/payway/list',
      'POST /token/static/traffic',
      'POST /token/static/ip',
      'POST /token/variable/traffic',
      'POST /token/variable/ip',
      'POST /token/ip/renew',
      'POST /token/ip/auto/renew',
      'POST /token/variable/ip/renew',
      'POST /token/variable/ip/auto/renew',
      'PUT /token/remark/:token_id',
      'GET /token/spider/records',
      'POST /token/create/spider',
      'GET /token/spider/record/file/:id',
      'GET /token/export',
      'GET /invite/info',
      'GET /invite/records',
      'GET /invite/rebate/records',
      'GET /invite/rebate/config',
      'GET /invite/share/:code',
      'POST /invite/admin/rebate/config',
      'GET /invite/admin/rebate/config/list',
      'GET /pay/option/list',
      'GET /pay/record/list',
      'POST /pay/charge/:method/:amount',
      'GET /v1/ip-quality/:ip',
      'GET /user/work/order/list',
      'POST /user/work/order',
      'POST /user/work/order/cancel/:id',
    ])
      expect(keys).toContain(must);
  });
  it('is the groups merged, and refuses a name or a call declared twice', () => {
    expect(Object.keys(ROUTES)).toEqual(Object.values(ROUTE_GROUPS).flatMap((g) => Object.keys(g)));
    const a = defineRoute({ method: 'GET', path: '/a', auth: 'user', summary: 'a', tag: 't' });
    const b = defineRoute({ method: 'GET', path: '/b', auth: 'user', summary: 'b', tag: 't' });
    expect(() => mergeRouteGroups({ one: { a }, two: { a: b } })).toThrow('Route "a" is declared twice');
    expect(() => mergeRouteGroups({ one: { a }, two: { other: a } })).toThrow('GET /a is declared twice');
    expect(Object.keys(mergeRouteGroups({ one: { a }, two: { b } }))).toEqual(['a', 'b']);
  });
  it('declares OpenAPI 3.1 with JSON Schema 2020-12, and every customer API answer has examples from the contract', () => {
    const doc = buildOpenApi() as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema?: TSchema }> }> }>
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    type TSchema = {
      examples?: unknown[];
      type?: string | string[];
      properties?: Record<string, TSchema>;
      items?: TSchema;
      anyOf?: TSchema[];
      enum?: unknown[];
      const?: unknown;
    };
    // A schema shows a real example when it has one, or when everything inside it does.
    const missing: string[] = [];
    const walk = (schema: TSchema | undefined, at: string): boolean => {
      if (!schema) return true;
      if (schema.examples?.length || schema.enum || schema.const !== undefined || schema.type === 'null') return true;
      if (schema.anyOf) return schema.anyOf.every((s, i) => walk(s, `${at}|${i}`));
      if (schema.properties) return Object.entries(schema.properties).every(([k, s]) => walk(s, `${at}.${k}`));
      if (schema.items) return walk(schema.items, `${at}[]`);
      missing.push(at);
      return false;
    };
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const data = op.responses[200].content?.['application/json']?.schema?.properties?.data;
        walk(data as TSchema, `${method.toUpperCase()} ${path}`);
        operations += 1;
      }
    }
    expect(operations).toBeGreaterThanOrEqual(6);
    expect(missing).toEqual([]);
  });
  it('auth calls are form posts without a token', () => {
    for (const name of [
      'userLogin',
      'userRegister',
      'userCode',
      'userResetPassword',
      'userGoogleVerify',
      'userGithubVerify',
    ] as const) {
      expect(ROUTES[name].body).toBe('form');
      expect(ROUTES[name].auth).toBe('none');
    }
  });
  it('generates an OpenAPI document with every path', () => {
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { requestBody?: unknown; parameters: { name: string; in: string }[] }>>;
    };
    expect(doc.paths['/api/user/login'].post.requestBody).toBeTruthy();
    expect(doc.paths['/api/token/test/{id}'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path' }),
    );
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
  });
});
