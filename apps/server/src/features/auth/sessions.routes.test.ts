// Past ~400 lines: the session and access-token cases share one app and database copy (each test file starts its own).
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS } from '@proxy/contract';
import { userSessions, users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { setUserStatus } from '../users/users.service';
import { codeSentTo, postForm, registerUser } from './auth-test-kit';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

describe('sessions: one per sign-in, listed, ended one by one or all at once', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Calls the API as a browser: bearer token, address and User-Agent. */
  function call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options: { token?: string; ip?: string; ua?: string; lang?: string; body?: object } = {},
  ) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      remoteAddress: options.ip,
      ...(options.body ? { payload: options.body } : {}),
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.ua ? { 'user-agent': options.ua } : {}),
        ...(options.lang ? { lang: options.lang } : {}),
      },
    });
  }

  async function signIn(
    account: string,
    password: string,
    options: { ip?: string; ua?: string } = {},
  ): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: options.ip,
      payload: new URLSearchParams({ email: account, password }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.ua ? { 'user-agent': options.ua } : {}),
      },
    });
    if (res.json().code !== 0) throw new Error(`login: ${res.body}`);
    return res.json().data.token as string;
  }

  async function sessionIdOf(token: string): Promise<number> {
    const claims = await t.deps.jwt.verify(token);
    if (!claims) throw new Error('not a valid token');
    return claims.sessionId;
  }

  async function sessionRow(id: number) {
    const [row] = await t.db.db.select().from(userSessions).where(eq(userSessions.id, id));
    return row;
  }

  async function userIdOf(email: string): Promise<number> {
    const [row] = await t.db.db.select().from(users).where(eq(users.email, email));
    return row.id;
  }

  async function liveRows(userId: number) {
    return (await t.db.db.select().from(userSessions).where(eq(userSessions.userId, userId))).filter(
      (r) => r.endedAt === null,
    );
  }

  it("every sign-in writes a session row (method, device cut to 256 characters, address) whose id is the token's sid", async () => {
    const registered = await registerUser(t.app, mailer, {
      email: 'sam@example.com',
      username: 'sam',
      password: 'sam-password',
    });
    const userId = await userIdOf('sam@example.com');
    expect(await sessionRow(await sessionIdOf(registered))).toMatchObject({
      userId,
      method: 'register',
      ip: '127.0.0.1',
      endedAt: null,
    });
    const longAgent = `Mozilla/5.0 ${'x'.repeat(400)}`;
    const token = await signIn('SAM', 'sam-password', { ip: '10.20.0.1', ua: longAgent });
    const row = await sessionRow(await sessionIdOf(token));
    expect(row).toMatchObject({
      userId,
      method: 'password',
      ip: '10.20.0.1',
      userAgent: longAgent.slice(0, 256),
      endedAt: null,
    });
    expect(row.createdAt.getTime()).toBe(clock.now().getTime());
    expect(row.lastUsedAt.getTime()).toBe(clock.now().getTime());
    // Control characters (a NUL the database cannot hold) are dropped from the device name.
    const odd = await signIn('sam', 'sam-password', { ua: 'Odd\u0000Agent\u0007/1' });
    expect((await sessionRow(await sessionIdOf(odd))).userAgent).toBe('OddAgent/1');
  });

  it('GET /user/sessions lists the live sessions newest first, marking the current one', async () => {
    const first = await registerUser(t.app, mailer, {
      email: 'tia@example.com',
      username: 'tia',
      password: 'tia-password',
    });
    const firstAt = clock.now();
    clock.advance(1000);
    const second = await signIn('tia', 'tia-password', { ip: '10.21.0.2', ua: 'Firefox' });
    const secondAt = clock.now();
    clock.advance(1000);
    const third = await signIn('tia@example.com', 'tia-password', { ip: '10.21.0.3', ua: 'Safari' });
    const thirdAt = clock.now();
    expect((await call('POST', '/user/logout', { token: third })).json().code).toBe(0);

    const res = await call('GET', '/user/sessions', { token: second, ip: '10.21.0.2' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: await sessionIdOf(second),
        method: 'password',
        user_agent: 'Firefox',
        ip: '10.21.0.2',
        created_at: secondAt.toISOString(),
        last_used_at: secondAt.toISOString(),
        is_current: true,
      },
      {
        id: await sessionIdOf(first),
        method: 'register',
        user_agent: 'lightMyRequest',
        ip: '127.0.0.1',
        created_at: firstAt.toISOString(),
        last_used_at: firstAt.toISOString(),
        is_current: false,
      },
    ]);
    expect(thirdAt.getTime()).toBeGreaterThan(secondAt.getTime());
    const fromFirst = (await call('GET', '/user/sessions', { token: first })).json().data as {
      id: number;
      is_current: boolean;
    }[];
    expect(fromFirst.map((s) => [s.id, s.is_current])).toEqual([
      [await sessionIdOf(second), false],
      [await sessionIdOf(first), true],
    ]);
  });

  it('a session whose token can no longer be valid (unused for the whole token lifetime) is not listed', async () => {
    const old = await registerUser(t.app, mailer, {
      email: 'ugo@example.com',
      username: 'ugo',
      password: 'ugo-password',
    });
    clock.advance(216_000 * 1000 + 61_000);
    const fresh = await signIn('ugo', 'ugo-password');
    expect((await call('GET', '/user/info', { token: old })).json().code).toBe(401);
    const listed = (await call('GET', '/user/sessions', { token: fresh })).json().data as { id: number }[];
    expect(listed.map((s) => s.id)).toEqual([await sessionIdOf(fresh)]);
  });

  it('POST /user/sessions/end/:id ends another session of the user; the caller stays signed in', async () => {
    await registerUser(t.app, mailer, { email: 'vic@example.com', username: 'vic', password: 'vic-password' });
    const laptop = await signIn('vic', 'vic-password', { ua: 'Laptop' });
    const phone = await signIn('vic', 'vic-password', { ua: 'Phone' });
    const phoneId = await sessionIdOf(phone);
    const res = await call('POST', `/user/sessions/end/${phoneId}`, { token: laptop, lang: 'en' });
    expect(res.json()).toEqual({ code: 0, msg: 'OK', data: null });
    expect((await sessionRow(phoneId)).endedAt?.getTime()).toBe(clock.now().getTime());
    expect((await call('GET', '/user/info', { token: phone })).json()).toMatchObject({
      code: -401,
      data: { error: 'SESSION_REVOKED' },
    });
    expect((await call('GET', '/user/info', { token: laptop })).json().code).toBe(0);
    // Ending its own session signs the caller out.
    const laptopId = await sessionIdOf(laptop);
    expect((await call('POST', `/user/sessions/end/${laptopId}`, { token: laptop })).json().code).toBe(0);
    expect((await call('GET', '/user/info', { token: laptop })).json().code).toBe(-401);
  });

  it("another user's session answers 404 and changes nothing; so do an unknown and an already ended one", async () => {
    const mine = await registerUser(t.app, mailer, {
      email: 'wes@example.com',
      username: 'wes',
      password: 'wes-password',
    });
    const theirs = await registerUser(t.app, mailer, {
      email: 'xia@example.com',
      username: 'xia',
      password: 'xia-password',
    });
    const theirId = await sessionIdOf(theirs);
    const before = await sessionRow(theirId);
    for (const lang of ['en', 'zh']) {
      const res = await call('POST', `/user/sessions/end/${theirId}`, { token: mine, lang });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        code: 1016,
        msg: lang === 'en' ? 'Session not found or already ended' : '登录会话不存在或已结束',
        data: { error: 'SESSION_NOT_FOUND' },
      });
    }
    expect(await sessionRow(theirId)).toEqual(before);
    expect((await call('GET', '/user/info', { token: theirs })).json().code).toBe(0);
    // Their sessions are not in my list either.
    const listed = (await call('GET', '/user/sessions', { token: mine })).json().data as { id: number }[];
    expect(listed.map((s) => s.id)).not.toContain(theirId);

    expect((await call('POST', '/user/sessions/end/987654321', { token: mine })).statusCode).toBe(404);
    const spare = await signIn('wes', 'wes-password');
    const spareId = await sessionIdOf(spare);
    expect((await call('POST', `/user/sessions/end/${spareId}`, { token: mine })).json().code).toBe(0);
    const again = await call('POST', `/user/sessions/end/${spareId}`, { token: mine });
    expect(again.statusCode).toBe(404);
    expect(again.json().data.error).toBe('SESSION_NOT_FOUND');
  });

  it('a session id that is not a positive integer is refused with a 400 in the Lang language', async () => {
    const token = await signIn('wes', 'wes-password');
    for (const id of ['abc', '0', '-3', '1.5', '99999999999999999999']) {
      const res = await call('POST', `/user/sessions/end/${id}`, { token, lang: 'en' });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().data.error, id).toBe('BAD_REQUEST');
    }
  });

  it('POST /user/logout/all ends every session of the user and no one else; a new sign-in works', async () => {
    await registerUser(t.app, mailer, { email: 'yan@example.com', username: 'yan', password: 'yan-password' });
    const tokens = [
      await signIn('yan', 'yan-password'),
      await signIn('yan', 'yan-password'),
      await signIn('yan', 'yan-password'),
    ];
    const bystander = await signIn('xia', 'xia-password');
    const res = await call('POST', '/user/logout/all', { token: tokens[1], lang: 'zh' });
    expect(res.json()).toEqual({ code: 0, msg: '成功', data: null });
    for (const token of tokens) expect((await call('GET', '/user/info', { token })).json().code).toBe(-401);
    expect(await liveRows(await userIdOf('yan@example.com'))).toEqual([]);
    expect((await call('GET', '/user/info', { token: bystander })).json().code).toBe(0);
    const again = await signIn('yan', 'yan-password');
    expect((await call('GET', '/user/sessions', { token: again })).json().data).toHaveLength(1);
  });

  it('a password change keeps the caller signed in on a new session and ends the others', async () => {
    const caller = await registerUser(t.app, mailer, {
      email: 'zed@example.com',
      username: 'zed',
      password: 'zed-password',
    });
    const other = await signIn('zed', 'zed-password');
    const res = await call('POST', '/user/change_password', {
      token: caller,
      ip: '10.22.0.9',
      ua: 'Chrome',
      body: { current_password: 'zed-password', password: 'zed-new-password', confirm_password: 'zed-new-password' },
    });
    expect(res.json().code).toBe(0);
    const next = res.json().data.token as string;
    const nextId = await sessionIdOf(next);
    expect(nextId).not.toBe(await sessionIdOf(caller));
    expect(await sessionRow(nextId)).toMatchObject({
      method: 'password',
      ip: '10.22.0.9',
      userAgent: 'Chrome',
      endedAt: null,
    });
    for (const token of [caller, other]) expect((await call('GET', '/user/info', { token })).json().code).toBe(-401);
    const listed = (await call('GET', '/user/sessions', { token: next })).json().data as {
      id: number;
      is_current: boolean;
    }[];
    expect(listed).toEqual([expect.objectContaining({ id: nextId, is_current: true })]);
  });

  it('a wrong current password changes nothing: the sessions stay', async () => {
    const token = await signIn('zed', 'zed-new-password');
    const before = await liveRows(await userIdOf('zed@example.com'));
    const res = await call('POST', '/user/change_password', {
      token,
      body: {
        current_password: 'not-the-password',
        password: 'zed-newer-password',
        confirm_password: 'zed-newer-password',
      },
    });
    expect(res.json().code).toBe(1008);
    expect(await liveRows(await userIdOf('zed@example.com'))).toEqual(before);
    expect((await call('GET', '/user/info', { token })).json().code).toBe(0);
  });

  it('a password reset and disabling the account end every session row', async () => {
    await registerUser(t.app, mailer, { email: 'abe@example.com', username: 'abe', password: 'abe-password' });
    await signIn('abe', 'abe-password');
    const userId = await userIdOf('abe@example.com');
    expect(await liveRows(userId)).toHaveLength(2);
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'abe@example.com', type: 'reset' });
    const code = codeSentTo(mailer, 'abe@example.com');
    const reset = await postForm(t.app, '/user/reset_password', {
      email: 'abe@example.com',
      code,
      password: 'abe-new-password',
      confirm_password: 'abe-new-password',
    });
    expect(reset.json().code).toBe(0);
    expect(await liveRows(userId)).toEqual([]);

    const token = await signIn('abe', 'abe-new-password');
    expect(await liveRows(userId)).toHaveLength(1);
    await setUserStatus(t.deps, userId, 'disabled');
    expect(await liveRows(userId)).toEqual([]);
    expect((await call('GET', '/user/info', { token })).json().code).toBe(-401);
    await setUserStatus(t.deps, userId, 'active');
  });

  it("a token whose session row is ended or missing, or is another user's, answers -401 like a revoked version", async () => {
    const token = await signIn('abe', 'abe-new-password');
    const id = await sessionIdOf(token);
    await t.db.db.update(userSessions).set({ endedAt: clock.now() }).where(eq(userSessions.id, id));
    const ended = await call('GET', '/user/info', { token, lang: 'en' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual({
      code: -401,
      msg: 'Your session is no longer valid, please sign in again!',
      data: { error: 'SESSION_REVOKED' },
    });

    const other = await signIn('abe', 'abe-new-password');
    await t.db.db.delete(userSessions).where(eq(userSessions.id, await sessionIdOf(other)));
    expect((await call('GET', '/user/info', { token: other })).json().code).toBe(-401);

    // A genuine token of abe whose sid is a live session of xia.
    const xia = await signIn('xia', 'xia-password');
    const [abe] = await t.db.db.select().from(users).where(eq(users.email, 'abe@example.com'));
    const forged = await t.deps.jwt.sign({
      userId: abe.id,
      tokenVersion: abe.tokenVersion,
      sessionId: await sessionIdOf(xia),
    });
    expect((await call('GET', '/user/info', { token: forged })).json().code).toBe(-401);
  });

  it('writes the last use (time and address) at most once a minute', async () => {
    const token = await signIn('xia', 'xia-password', { ip: '10.30.0.1' });
    const id = await sessionIdOf(token);
    const signedInAt = clock.now();
    clock.advance(30_000);
    expect((await call('GET', '/user/info', { token, ip: '10.30.0.2' })).json().code).toBe(0);
    expect(await sessionRow(id)).toMatchObject({ lastUsedAt: signedInAt, ip: '10.30.0.1' });
    clock.advance(30_000);
    const usedAt = clock.now();
    expect((await call('GET', '/user/info', { token, ip: '10.30.0.2' })).json().code).toBe(0);
    expect(await sessionRow(id)).toMatchObject({ lastUsedAt: usedAt, ip: '10.30.0.2' });
    clock.advance(59_000);
    expect((await call('GET', '/user/info', { token, ip: '10.30.0.3' })).json().code).toBe(0);
    expect(await sessionRow(id)).toMatchObject({ lastUsedAt: usedAt, ip: '10.30.0.2' });
  });

  it('every session call needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/user/sessions'],
      ['POST', '/user/sessions/end/1'],
      ['POST', '/user/logout/all'],
      ['POST', '/user/logout'],
    ] as const) {
      const res = await call(method, url, { lang: 'en' });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code, url).toBe(401);
    }
  });
});

describe('access tokens are strict', () => {
  let t: TTestApp;
  const mailer = createMemoryMailer();
  let userId: number;
  let sessionId: number;
  let tokenVersion: number;
  beforeAll(async () => {
    t = await createTestApp({ mailer });
    const token = await registerUser(t.app, mailer, { email: 'strict@example.com', username: 'strict' });
    const claims = (await t.deps.jwt.verify(token))!;
    ({ userId, sessionId, tokenVersion } = claims);
  });
  afterAll(async () => {
    await t.close();
  });

  const secret = () => new TextEncoder().encode(t.deps.config.jwtSecret);
  const now = () => Math.floor(Date.now() / 1000);

  /** Signs a token with the server's own secret; each field can be changed or left out (undefined). */
  async function craft(
    over: { sub?: unknown; sid?: unknown; ver?: unknown; exp?: unknown; aud?: unknown; iss?: unknown } = {},
    alg = 'HS256',
  ) {
    const claims: Record<string, unknown> = {
      sub: String(userId),
      sid: sessionId,
      ver: tokenVersion,
      iat: now(),
      exp: now() + 3600,
      aud: 'proxy-console',
      iss: 'proxy-console-api',
    };
    for (const [name, value] of Object.entries(over)) {
      if (value === undefined) delete claims[name];
      else claims[name] = value;
    }
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret());
  }

  const info = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: `Bearer ${token}`, lang: 'en' } });

  it('a token crafted with every required claim is accepted (the refusals below are about one claim each)', async () => {
    const res = await info(await craft());
    expect(res.json().code).toBe(0);
    expect(res.json().data.user_id).toBe(userId);
  });

  it.each([
    ['without exp', { exp: undefined }],
    ['without sid', { sid: undefined }],
    ['with a string sid', { sid: 'SID' }],
    ['with a sid in quotes', { sid: 'NUM' }],
    ['with a fractional sid', { sid: 1.5 }],
    ['with sid 0', { sid: 0 }],
    ['with subject "2.0"', { sub: 'DOT0' }],
    ['with a subject with a leading zero', { sub: 'ZERO' }],
    ['with a subject in exponent form', { sub: 'EXP' }],
    ['with a subject with a space', { sub: 'SPACE' }],
    ['with a non-numeric subject', { sub: 'abc' }],
    ['with a numeric (not string) subject', { sub: 'NUMBER' }],
    ['without a subject', { sub: undefined }],
    ['without aud', { aud: undefined }],
    ['with another audience', { aud: 'someone-else' }],
    ['without iss', { iss: undefined }],
    ['with another issuer', { iss: 'someone-else' }],
    ['with a fractional token version', { ver: 0.5 }],
    ['without a token version', { ver: undefined }],
    ['expired', { exp: 'PAST' }],
  ] as [string, Record<string, unknown>][])(
    'refuses a correctly signed token %s (401, code 401)',
    async (_name, raw) => {
      const over: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(raw)) {
        const special: Record<string, unknown> = {
          SID: 'abc',
          NUM: String(sessionId),
          DOT0: `${userId}.0`,
          ZERO: `0${userId}`,
          EXP: `${userId}e0`,
          SPACE: ` ${userId}`,
          NUMBER: userId,
          PAST: now() - 10,
        };
        over[name] = typeof value === 'string' && value in special ? special[value] : value;
      }
      const res = await info(await craft(over));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        code: 401,
        msg: 'Your session has expired, please sign in again!',
        data: { error: 'UNAUTHORIZED' },
      });
    },
  );

  it('a personal API key with a control character or of absurd length is refused (401), never a server error', async () => {
    for (const url of [
      '/api/v1/proxies?key=pk_a%00b',
      `/api/v1/proxies?key=pk_${'x'.repeat(5000)}`,
      '/api/v1/proxies?key=pk_%07',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { lang: 'en' } });
      expect(res.statusCode, url.slice(0, 40)).toBe(401);
      expect(res.json().data.error).toBe('UNAUTHORIZED');
    }
  });

  it('refuses a token signed with another algorithm or another secret', async () => {
    expect((await info(await craft({}, 'HS512'))).statusCode).toBe(401);
    const foreign = await new SignJWT({ sub: String(userId), sid: sessionId, ver: tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('proxy-console-api')
      .setAudience('proxy-console')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expect((await info(foreign)).json().code).toBe(401);
  });
});
