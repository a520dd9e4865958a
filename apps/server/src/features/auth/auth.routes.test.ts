// Past ~400 lines: registration, sign-in, reset, their rate limits and timing share one app and database copy
// (each test file starts its own).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS } from '@proxy/contract';
import { ledgerEntries, notifications, userSessions, users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { setUserStatus } from '../users/users.service';
import { callApi, codeSentTo, postForm, registerUser } from './auth-test-kit';
import { isAppError } from '../../lib/app-error';
import { createAccount, login } from './auth.service';
import { hashPassword } from './password';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

async function findUser(t: TTestApp, email: string) {
  const [row] = await t.db.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function balanceOf(t: TTestApp, token: string): Promise<number> {
  const info = await callApi(t.app, 'GET', '/user/info', { token });
  return info.json().data.balance as number;
}

describe('registration (/user/register)', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
  });
  afterAll(async () => {
    await t.close();
  });

  async function sendCode(email: string): Promise<string> {
    clock.advance(CODE_RESEND_MS);
    const res = await postForm(t.app, '/user/code', { email, type: 'register' });
    expect(res.json().code).toBe(0);
    return codeSentTo(mailer, email);
  }

  const form = (over: Record<string, string> = {}) => ({
    username: 'newbie',
    email: 'newbie@example.com',
    password: 'password-123',
    confirm_password: 'password-123',
    code: '123456',
    ...over,
  });

  it('creates an active account with its own API key and invite code, and answers a new session', async () => {
    const code = await sendCode('alice@example.com');
    const res = await postForm(t.app, '/user/register', form({ username: 'Alice', email: 'alice@example.com', code }), {
      lang: 'en',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 0, data: { expires_in: 216000, is_new_user: true } });
    const user = await findUser(t, 'alice@example.com');
    expect(user).toMatchObject({ username: 'Alice', status: 'active', isAdmin: false, invitedBy: null });
    expect(user.apiKey).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(user.inviteCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.lastLoginAt?.getTime()).toBe(clock.now().getTime());
    const info = await callApi(t.app, 'GET', '/user/info', { token: body.data.token });
    expect(info.json().data).toMatchObject({
      name: 'Alice',
      email: 'alice@example.com',
      balance: 15,
      trial_credit: 15,
    });
    // Active at once: the password signs in.
    expect(
      (await postForm(t.app, '/user/login', { email: 'alice@example.com', password: 'password-123' })).json().code,
    ).toBe(0);
  });

  it('sends the welcome e-mail in the Lang language with a sign-in link, and writes a welcome notification', async () => {
    const code = await sendCode('bob@example.com');
    await postForm(t.app, '/user/register', form({ username: 'bob', email: 'bob@example.com', code }), { lang: 'zh' });
    const mail = mailer.last('bob@example.com');
    expect(mail?.subject).toBe('欢迎加入 ProxyHub');
    expect(mail?.text).toContain(`${t.deps.config.publicUrl}/login`);
    expect(mail?.html).toContain(`href="${t.deps.config.publicUrl}/login"`);
    const code2 = await sendCode('bob-en@example.com');
    await postForm(t.app, '/user/register', form({ username: 'bob-en', email: 'bob-en@example.com', code: code2 }), {
      lang: 'en',
    });
    expect(mailer.last('bob-en@example.com')?.subject).toBe('Welcome to ProxyHub');
    const user = await findUser(t, 'bob@example.com');
    const kinds = (await t.db.db.select().from(notifications).where(eq(notifications.userId, user.id)))
      .map((n) => n.kind)
      .sort();
    expect(kinds).toEqual(['trial_credit', 'welcome']);
  });

  it.each([
    ['username too short', { username: 'a' }, 'Username must be 2-20 characters', '用户名长度为 2-20 个字符'],
    ['username too long', { username: 'a'.repeat(21) }, 'Username must be 2-20 characters', '用户名长度为 2-20 个字符'],
    [
      'username with @',
      { username: 'a@b' },
      'Username cannot contain spaces, @ or control characters',
      '用户名不能包含空格、@ 或控制字符',
    ],
    [
      'password under 8',
      { password: 'short12', confirm_password: 'short12' },
      'Password must be at least 8 characters',
      '密码至少 8 位',
    ],
    [
      'passwords differ',
      { confirm_password: 'password-124' },
      'The two passwords you entered are inconsistent',
      '两次输入的密码不一致',
    ],
    ['code of 5 digits', { code: '12345' }, 'The verification code is 6 digits', '验证码为 6 位数字'],
    ['code with letters', { code: '12345a' }, 'The verification code is 6 digits', '验证码为 6 位数字'],
    ['code of 7 digits', { code: '1234567' }, 'The verification code is 6 digits', '验证码为 6 位数字'],
    ['invalid e-mail', { email: 'newbie@' }, 'Please enter a valid e-mail address', '请输入有效的邮箱地址'],
    ['missing e-mail', { email: '' }, 'email: This field is required', 'email: 此项为必填项'],
    ['malformed invite code', { invite_code: 'ab!' }, 'Invalid invitation code format', '邀请码格式不正确'],
  ])('rejects %s in both languages and creates nothing', async (_name, over, en, zh) => {
    const enRes = await postForm(t.app, '/user/register', form(over), { lang: 'en' });
    expect(enRes.statusCode).toBe(400);
    expect(enRes.json()).toMatchObject({ code: 400, msg: en, data: { error: 'BAD_REQUEST' } });
    const zhRes = await postForm(t.app, '/user/register', form(over), { lang: 'zh-CN' });
    expect(zhRes.json().msg).toBe(zh);
    expect(await findUser(t, 'newbie@example.com')).toBeUndefined();
  });

  it('a wrong code creates no user', async () => {
    const code = await sendCode('wrongcode@example.com');
    const wrong = code === '999999' ? '000000' : '999999';
    const res = await postForm(
      t.app,
      '/user/register',
      form({ username: 'wrongcode', email: 'wrongcode@example.com', code: wrong }),
      { lang: 'en' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1004, data: { error: 'CODE_INVALID' } });
    expect(await findUser(t, 'wrongcode@example.com')).toBeUndefined();
  });

  it('refuses a username taken by another account, ignoring case, and keeps the code usable', async () => {
    const code = await sendCode('carol@example.com');
    const taken = await postForm(
      t.app,
      '/user/register',
      form({ username: 'ALICE', email: 'carol@example.com', code }),
      { lang: 'en' },
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 1003, msg: 'This username is already taken' });
    expect(await findUser(t, 'carol@example.com')).toBeUndefined();
    const ok = await postForm(t.app, '/user/register', form({ username: 'carol', email: 'carol@example.com', code }));
    expect(ok.json().code).toBe(0);
  });

  it('links the inviter by invite code (any case), refuses an unknown one and leaves no trace', async () => {
    const inviter = await findUser(t, 'alice@example.com');
    const code = await sendCode('invited@example.com');
    const unknown = await postForm(
      t.app,
      '/user/register',
      form({ username: 'invited', email: 'invited@example.com', code, invite_code: 'ZZZZ0000' }),
      {
        lang: 'zh',
      },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 1007,
      msg: '邀请码不存在或已失效',
      data: { error: 'INVITE_CODE_INVALID' },
    });
    expect(await findUser(t, 'invited@example.com')).toBeUndefined();
    const res = await postForm(
      t.app,
      '/user/register',
      form({ username: 'invited', email: 'invited@example.com', code, invite_code: inviter.inviteCode.toLowerCase() }),
    );
    expect(res.json().code).toBe(0);
    expect((await findUser(t, 'invited@example.com')).invitedBy).toBe(inviter.id);
  });

  it('an e-mail that has an account: the right password signs in, a wrong one answers exactly like a wrong code', async () => {
    const email = 'existing@example.com';
    // The code was sent before the account existed (it was then created through another sign-in).
    const code = await sendCode(email);
    await createAccount(t.deps, {
      email,
      username: 'existing',
      passwordHash: await hashPassword('their-password', { memoryKib: 1024, timeCost: 1 }),
    });
    const wrongCode = await postForm(
      t.app,
      '/user/register',
      form({ username: 'someone', email, code: code === '000000' ? '111111' : '000000' }),
      {
        lang: 'en',
      },
    );
    const wrong = await postForm(
      t.app,
      '/user/register',
      form({ username: 'someone', email, code, password: 'not-theirs-1', confirm_password: 'not-theirs-1' }),
      { lang: 'en' },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.statusCode).toBe(wrongCode.statusCode);
    expect(wrong.json()).toEqual(wrongCode.json());
    expect(wrong.json()).toEqual({
      code: 1004,
      msg: 'The verification code is wrong or has expired',
      data: { error: 'CODE_INVALID' },
    });
    const right = await postForm(
      t.app,
      '/user/register',
      form({ username: 'someone', email, code, password: 'their-password', confirm_password: 'their-password' }),
    );
    expect(right.json()).toMatchObject({ code: 0, data: { is_new_user: false } });
    const info = await callApi(t.app, 'GET', '/user/info', { token: right.json().data.token });
    expect(info.json().data).toMatchObject({ name: 'existing', balance: 15 });
    // A password sign-in of the existing account: a session of method "password".
    const claims = await t.deps.jwt.verify(right.json().data.token);
    const [session] = await t.db.db.select().from(userSessions).where(eq(userSessions.id, claims!.sessionId));
    expect(session).toMatchObject({ userId: info.json().data.user_id, method: 'password' });
    // The code was used by that sign-in.
    const replay = await postForm(
      t.app,
      '/user/register',
      form({ username: 'someone', email, code, password: 'their-password', confirm_password: 'their-password' }),
    );
    expect(replay.json().code).toBe(1004);
    expect((await t.db.db.select().from(users).where(eq(users.email, email))).length).toBe(1);
  });

  it('registering an existing e-mail: the owner gets the account-exists e-mail whose code signs in with the right password', async () => {
    const email = 'owner@example.com';
    await registerUser(t.app, mailer, { email, username: 'owner', password: 'owner-password' });
    clock.advance(CODE_RESEND_MS);
    const sent = await postForm(t.app, '/user/code', { email, type: 'register' }, { lang: 'en' });
    expect(sent.json()).toEqual({ code: 0, msg: 'OK', data: { resend_after: 60 } });
    const mail = mailer.last(email);
    expect(mail?.subject).toBe('ProxyHub: you already have an account');
    expect(mail?.text).toContain('username: owner');
    expect(mail?.text).toContain(`${t.deps.config.publicUrl}/reset-password`);
    const code = codeSentTo(mailer, email);
    const res = await postForm(
      t.app,
      '/user/register',
      form({ username: 'whatever', email, code, password: 'owner-password', confirm_password: 'owner-password' }),
    );
    expect(res.json()).toMatchObject({ code: 0, data: { is_new_user: false } });
    expect((await callApi(t.app, 'GET', '/user/info', { token: res.json().data.token })).json().data.name).toBe(
      'owner',
    );
  });

  it('registering an existing e-mail with wrong passwords counts wrong tries of the code: the fifth voids it', async () => {
    const email = 'guarded@example.com';
    await registerUser(t.app, mailer, { email, username: 'guarded', password: 'guarded-password' });
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email, type: 'register' }, { lang: 'zh' });
    expect(mailer.last(email)?.subject).toBe('ProxyHub 账号已存在');
    const code = codeSentTo(mailer, email);
    for (let i = 0; i < 5; i += 1) {
      const res = await postForm(
        t.app,
        '/user/register',
        form({ email, code, password: `wrong-password-${i}`, confirm_password: `wrong-password-${i}` }),
        {
          lang: 'zh',
        },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1004, msg: '验证码错误或已过期', data: { error: 'CODE_INVALID' } });
    }
    const right = await postForm(
      t.app,
      '/user/register',
      form({ email, code, password: 'guarded-password', confirm_password: 'guarded-password' }),
    );
    expect(right.json().code).toBe(1004);
    const user = await findUser(t, email);
    expect((await t.db.db.select().from(userSessions).where(eq(userSessions.userId, user.id))).length).toBe(1);
  });
});

describe('registration when an invite code is required', () => {
  it('asks for the invite code (inviteRequired) and accepts a valid one', async () => {
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer, config: { REGISTRATION_INVITE_REQUIRED: 'true' } });
    try {
      const inviter = await createAccount(t.deps, { email: 'host@example.com', passwordHash: null });
      await postForm(t.app, '/user/code', { email: 'guest@example.com', type: 'register' });
      const code = codeSentTo(mailer, 'guest@example.com');
      const base = {
        username: 'guest',
        email: 'guest@example.com',
        password: 'password-123',
        confirm_password: 'password-123',
        code,
      };
      const en = await postForm(t.app, '/user/register', base, { lang: 'en' });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toMatchObject({
        code: 400,
        msg: 'Please enter an invitation code',
        data: { issues: [{ path: 'invite_code' }] },
      });
      const zh = await postForm(t.app, '/user/register', { ...base, invite_code: '' }, { lang: 'zh' });
      expect(zh.json().msg).toBe('请输入邀请码');
      expect(await findUser(t, 'guest@example.com')).toBeUndefined();
      const ok = await postForm(t.app, '/user/register', { ...base, invite_code: inviter.inviteCode });
      expect(ok.json().code).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('sign-in, sessions and password reset', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in with the e-mail or the username (any case); remember is accepted', async () => {
    await registerUser(t.app, mailer, { email: 'dave@example.com', username: 'Dave', password: 'dave-password' });
    const byEmail = await postForm(t.app, '/user/login', {
      email: 'DAVE@example.com',
      password: 'dave-password',
      remember: 'true',
    });
    expect(byEmail.json()).toMatchObject({ code: 0, data: { is_new_user: false, expires_in: 216000 } });
    const byName = await postForm(t.app, '/user/login', { email: 'dave', password: 'dave-password' });
    expect(byName.json().code).toBe(0);
    const claims = await t.deps.jwt.verify(byName.json().data.token);
    expect(claims?.userId).toBe((await findUser(t, 'dave@example.com')).id);
  });

  it('stamps last_login_at with the clock', async () => {
    clock.advance(3_600_000);
    await postForm(t.app, '/user/login', { email: 'dave', password: 'dave-password' });
    expect((await findUser(t, 'dave@example.com')).lastLoginAt?.getTime()).toBe(clock.now().getTime());
  });

  it('answers the same for an unknown account, a wrong password and a password-less account', async () => {
    await createAccount(t.deps, { email: 'oauth-only@example.com', passwordHash: null });
    const wrong = await postForm(
      t.app,
      '/user/login',
      { email: 'dave@example.com', password: 'wrong-password' },
      { lang: 'en' },
    );
    const unknown = await postForm(
      t.app,
      '/user/login',
      { email: 'ghost@example.com', password: 'wrong-password' },
      { lang: 'en' },
    );
    const unknownName = await postForm(
      t.app,
      '/user/login',
      { email: 'ghost', password: 'wrong-password' },
      { lang: 'en' },
    );
    const noPassword = await postForm(
      t.app,
      '/user/login',
      { email: 'oauth-only@example.com', password: 'wrong-password' },
      { lang: 'en' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 1001,
      msg: 'Incorrect account or password',
      data: { error: 'INVALID_CREDENTIALS' },
    });
    for (const res of [unknown, unknownName, noPassword]) {
      expect(res.statusCode).toBe(wrong.statusCode);
      expect(res.json()).toEqual(wrong.json());
    }
    const zh = await postForm(t.app, '/user/login', { email: 'ghost', password: 'x' }, { lang: 'zh' });
    expect(zh.json().msg).toBe('账号或密码错误');
  });

  it('a name with a control character (a NUL the database cannot hold) is refused, never a server error', async () => {
    for (const email of ['da\u0000ve', 'dave\u0000@example.com', 'da\u0007ve']) {
      const res = await postForm(t.app, '/user/login', { email, password: 'dave-password' }, { lang: 'en' });
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 400,
        msg: 'email: Must not contain control characters',
        data: { issues: [{ path: 'email' }] },
      });
      // The sign-in rule itself (for any caller that skips the request checks) sees an unknown account.
      const direct = await login(t.deps, { email, password: 'dave-password' }, { ip: '10.40.0.1', lang: 'en' }).catch(
        (e: unknown) => e,
      );
      expect(isAppError(direct, 'INVALID_CREDENTIALS'), JSON.stringify(email)).toBe(true);
    }
  });

  it('asks for both fields: "Please enter your username and password"', async () => {
    const en = await postForm(t.app, '/user/login', { email: '', password: 'x' }, { lang: 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('Please enter your username and password');
    const zh = await postForm(t.app, '/user/login', { email: 'dave' }, { lang: 'zh' });
    expect(zh.json().msg).toBe('请输入用户名和密码');
  });

  it('grants the 15-yuan trial credit exactly once', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'erin@example.com',
      username: 'erin',
      password: 'erin-password',
    });
    expect(await balanceOf(t, token)).toBe(15);
    const again = await postForm(t.app, '/user/login', { email: 'erin', password: 'erin-password' });
    const third = await postForm(t.app, '/user/login', { email: 'erin', password: 'erin-password' });
    expect(await balanceOf(t, third.json().data.token)).toBe(15);
    expect(await balanceOf(t, again.json().data.token)).toBe(15);
    const user = await findUser(t, 'erin@example.com');
    expect((await t.db.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).length).toBe(1);
    const trialNotes = (await t.db.db.select().from(notifications).where(eq(notifications.userId, user.id))).filter(
      (n) => n.kind === 'trial_credit',
    );
    expect(trialNotes.length).toBe(1);
  });

  it('grants the trial credit on the first sign-in of an account created without one', async () => {
    await createAccount(t.deps, {
      email: 'frank@example.com',
      username: 'frank',
      passwordHash: await hashPassword('frank-password', { memoryKib: 1024, timeCost: 1 }),
    });
    const res = await postForm(t.app, '/user/login', { email: 'frank', password: 'frank-password' });
    const info = await callApi(t.app, 'GET', '/user/info', { token: res.json().data.token });
    expect(info.json().data).toMatchObject({ balance: 15, trial_credit: 15, total_balance: 0 });
  });

  it('refresh keeps the session; logout ends this session only', async () => {
    const login = await postForm(t.app, '/user/login', { email: 'dave', password: 'dave-password' });
    const token = login.json().data.token as string;
    const other = (await postForm(t.app, '/user/login', { email: 'dave', password: 'dave-password' })).json().data
      .token as string;
    clock.advance(10 * 60 * 1000);
    const refreshed = await callApi(t.app, 'GET', '/user/refresh_token', { token });
    expect(refreshed.json()).toMatchObject({ code: 0, data: { expires_in: 216000 } });
    const fresh = refreshed.json().data.token as string;
    expect(fresh).not.toBe(token);
    expect((await t.deps.jwt.verify(fresh))!.sessionId).toBe((await t.deps.jwt.verify(token))!.sessionId);
    expect((await callApi(t.app, 'GET', '/user/info', { token: fresh })).json().code).toBe(0);

    const out = await callApi(t.app, 'POST', '/user/logout', { token: fresh, lang: 'zh' });
    expect(out.json()).toEqual({ code: 0, msg: '成功', data: null });
    for (const old of [token, fresh]) {
      const res = await callApi(t.app, 'GET', '/user/info', { token: old, lang: 'zh' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: -401, msg: '登录已失效，请重新登录！', data: { error: 'SESSION_REVOKED' } });
      expect((await callApi(t.app, 'GET', '/user/refresh_token', { token: old })).json().code).toBe(-401);
    }
    // The other browser stays signed in.
    expect((await callApi(t.app, 'GET', '/user/info', { token: other })).json().code).toBe(0);
  });

  it('an expired token answers 401 (not -401)', async () => {
    const login = await postForm(t.app, '/user/login', { email: 'dave', password: 'dave-password' });
    clock.advance(216_001 * 1000);
    const res = await callApi(t.app, 'GET', '/user/info', { token: login.json().data.token });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(401);
  });

  it('a disabled account cannot sign in and its sessions end', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'gina@example.com',
      username: 'gina',
      password: 'gina-password',
    });
    const user = await findUser(t, 'gina@example.com');
    await setUserStatus(t.deps, user.id, 'disabled');
    expect((await callApi(t.app, 'GET', '/user/info', { token })).json().code).toBe(-401);
    const res = await postForm(t.app, '/user/login', { email: 'gina', password: 'gina-password' }, { lang: 'en' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 1006, msg: 'This account is disabled' });
    // A wrong password still says only "incorrect", never "disabled".
    expect((await postForm(t.app, '/user/login', { email: 'gina', password: 'nope-nope' })).json().code).toBe(1001);
  });

  it('resets the password with a code: old password and old sessions stop working', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'hank@example.com',
      username: 'hank',
      password: 'hank-password',
    });
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'hank@example.com', type: 'reset' });
    const code = codeSentTo(mailer, 'hank@example.com');
    const res = await postForm(
      t.app,
      '/user/reset_password',
      { email: 'hank@example.com', code, password: 'hank-new-password', confirm_password: 'hank-new-password' },
      { lang: 'en' },
    );
    expect(res.json()).toEqual({ code: 0, msg: 'OK', data: null });
    expect((await callApi(t.app, 'GET', '/user/info', { token })).json().code).toBe(-401);
    expect((await postForm(t.app, '/user/login', { email: 'hank', password: 'hank-password' })).json().code).toBe(1001);
    expect((await postForm(t.app, '/user/login', { email: 'hank', password: 'hank-new-password' })).json().code).toBe(
      0,
    );
    expect(mailer.last('hank@example.com')?.subject).toContain('password was changed');
  });

  it('reset for an unknown e-mail answers exactly like a wrong code', async () => {
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'hank@example.com', type: 'reset' });
    const realCode = codeSentTo(mailer, 'hank@example.com');
    const wrongCode = realCode === '000000' ? '111111' : '000000';
    const known = await postForm(
      t.app,
      '/user/reset_password',
      { email: 'hank@example.com', code: wrongCode, password: 'whatever-123', confirm_password: 'whatever-123' },
      { lang: 'en' },
    );
    await postForm(t.app, '/user/code', { email: 'stranger@example.com', type: 'reset' });
    const unknown = await postForm(
      t.app,
      '/user/reset_password',
      { email: 'stranger@example.com', code: wrongCode, password: 'whatever-123', confirm_password: 'whatever-123' },
      { lang: 'en' },
    );
    expect(known.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toMatchObject({ code: 1004, data: { error: 'CODE_INVALID' } });
  });

  it.each([
    ['invalid e-mail', { email: 'nope' }, 'Please enter a valid e-mail address', '请输入有效的邮箱地址'],
    [
      'code of 6 characters that are not digits',
      { code: 'abcdef' },
      'The verification code is 6 digits',
      '验证码为 6 位数字',
    ],
    [
      'short password',
      { password: 'seven77', confirm_password: 'seven77' },
      'Password must be at least 8 characters',
      '密码至少 8 位',
    ],
    [
      'passwords differ',
      { confirm_password: 'other-password' },
      'The two passwords you entered are inconsistent',
      '两次输入的密码不一致',
    ],
  ])('reset rejects %s in both languages', async (_name, over, en, zh) => {
    const body = {
      email: 'hank@example.com',
      code: '123456',
      password: 'good-password',
      confirm_password: 'good-password',
      ...over,
    };
    const enRes = await postForm(t.app, '/user/reset_password', body, { lang: 'en' });
    expect(enRes.statusCode).toBe(400);
    expect(enRes.json().msg).toBe(en);
    expect((await postForm(t.app, '/user/reset_password', body, { lang: 'zh' })).json().msg).toBe(zh);
  });
});

describe('rate limits on login, code, register and reset', () => {
  let t: TTestApp;
  const mailer = createMemoryMailer();
  beforeAll(async () => {
    t = await createTestApp({ mailer, config: { RATE_LIMIT_AUTH_MAX: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('after 3 failures of one account from any addresses, the next sign-in is asked a proof of work, never refused', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await postForm(
        t.app,
        '/user/login',
        { email: 'target@example.com', password: 'guess-guess' },
        { ip: `10.0.0.${i + 1}` },
      );
      expect(res.json().code).toBe(1001);
    }
    const res = await postForm(
      t.app,
      '/user/login',
      { email: 'target@example.com', password: 'guess-guess' },
      { ip: '10.0.0.9', lang: 'en' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ proof_required: true, bits: 16, expires_in: 300 });
  });

  it('answers 429 after 3 attempts from one address, whatever the account', async () => {
    for (let i = 0; i < 3; i += 1) {
      await postForm(
        t.app,
        '/user/login',
        { email: `user${i}@example.com`, password: 'guess-guess' },
        { ip: '10.1.1.1' },
      );
    }
    const res = await postForm(
      t.app,
      '/user/login',
      { email: 'other@example.com', password: 'guess-guess' },
      { ip: '10.1.1.1', lang: 'zh' },
    );
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 429, msg: '操作过于频繁，请稍后再试' });
  });

  it('limits code requests, registration and reset the same way', async () => {
    for (let i = 0; i < 3; i += 1)
      await postForm(t.app, '/user/code', { email: `c${i}@example.com`, type: 'register' }, { ip: '10.2.2.2' });
    expect(
      (await postForm(t.app, '/user/code', { email: 'c9@example.com', type: 'register' }, { ip: '10.2.2.2' }))
        .statusCode,
    ).toBe(429);
    const reg = {
      username: 'someone',
      email: 'r@example.com',
      password: 'password-123',
      confirm_password: 'password-123',
      code: '123456',
    };
    for (let i = 0; i < 3; i += 1) await postForm(t.app, '/user/register', reg, { ip: `10.3.3.${i}` });
    expect((await postForm(t.app, '/user/register', reg, { ip: '10.3.3.9' })).statusCode).toBe(429);
    const reset = {
      email: 'r@example.com',
      code: '123456',
      password: 'password-123',
      confirm_password: 'password-123',
    };
    for (let i = 0; i < 3; i += 1) await postForm(t.app, '/user/reset_password', reset, { ip: '10.4.4.4' });
    expect((await postForm(t.app, '/user/reset_password', reset, { ip: '10.4.4.4' })).json().code).toBe(429);
  });
});

describe('sign-in timing', () => {
  it('an unknown account costs as much hashing as a wrong password (production argon2 cost)', async () => {
    const t = await createTestApp({ config: { ARGON2_MEMORY_KIB: '19456', ARGON2_TIME_COST: '2' } });
    try {
      await createAccount(t.deps, {
        email: 'timed@example.com',
        username: 'timed',
        passwordHash: await hashPassword('timed-password', { memoryKib: 19456, timeCost: 2 }),
      });
      // CPU time of this process (argon2 runs on its worker threads), not wall-clock time:
      // other work on the machine does not change how much hashing a sign-in does.
      const cpuOfLogin = async (email: string) => {
        const before = process.cpuUsage();
        const res = await postForm(t.app, '/user/login', { email, password: 'wrong-password' });
        expect(res.json().code).toBe(1001);
        const used = process.cpuUsage(before);
        return used.user + used.system;
      };
      // Warm-up: the first unknown-account attempt computes the dummy hash.
      await cpuOfLogin('nobody@example.com');
      await cpuOfLogin('timed@example.com');
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        known.push(await cpuOfLogin('timed@example.com'));
        unknown.push(await cpuOfLogin(`nobody${i}@example.com`));
      }
      // Other work in the process (a busy machine's slower I/O, a collection) only adds to a sample, so the
      // cheapest of each is the sign-in's own cost. Without the dummy verification an unknown account's
      // cheapest costs a small fraction (a fifth, measured) of a wrong password's.
      expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
    } finally {
      await t.close();
    }
  });
});

describe('concurrent first sign-ins', () => {
  itOnPostgres('grant the trial credit once: 10 parallel first logins leave 15 yuan', async () => {
    const t = await createTestApp();
    try {
      await createAccount(t.deps, {
        email: 'rush@example.com',
        username: 'rush',
        passwordHash: await hashPassword('rush-password', { memoryKib: 1024, timeCost: 1 }),
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          postForm(t.app, '/user/login', { email: 'rush', password: 'rush-password' }, { ip: `10.9.9.${i}` }),
        ),
      );
      expect(results.map((r) => r.json().code)).toEqual(Array(10).fill(0));
      expect(await balanceOf(t, results[0].json().data.token)).toBe(15);
      const user = await findUser(t, 'rush@example.com');
      expect((await t.db.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).length).toBe(1);
      const trialNotes = (await t.db.db.select().from(notifications).where(eq(notifications.userId, user.id))).filter(
        (n) => n.kind === 'trial_credit',
      );
      expect(trialNotes.length).toBe(1);
    } finally {
      await t.close();
    }
  });
});
