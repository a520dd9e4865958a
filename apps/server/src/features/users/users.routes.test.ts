import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS } from '@proxy/contract';
import { users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { callApi, codeSentTo, issueTestToken, postForm, registerUser } from '../auth/auth-test-kit';
import { insertUser } from '../auth/auth.repository';
import { createAccount } from '../auth/auth.service';
import { uniqueViolationOf } from '../../lib/database-errors';

describe('user info and user center', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
  });
  afterAll(async () => {
    await t.close();
  });

  async function findUser(email: string) {
    const [row] = await t.db.db.select().from(users).where(eq(users.email, email));
    return row;
  }

  it('GET /user/info answers the user with money in yuan and the personal API key as token', async () => {
    const token = await registerUser(t.app, mailer, { email: 'ivy@example.com', username: 'ivy' });
    const user = await findUser('ivy@example.com');
    // Real recharges are what total_balance counts; the trial credit is not one.
    await t.db.db.update(users).set({ totalRechargeFen: 12345 }).where(eq(users.id, user.id));
    const res = await callApi(t.app, 'GET', '/user/info', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      user_id: user.id,
      name: 'ivy',
      balance: 15,
      frozen_balance: 0,
      status: 'active',
      total_balance: 123.45,
      email: 'ivy@example.com',
      token: user.apiKey,
      avatar: '',
      invite_code: user.inviteCode,
      trial_credit: 15,
      is_admin: false,
      password_change_required: false,
      created_at: clock.now().toISOString(),
    });
    expect(res.json().data.token).not.toBe(token);
  });

  it('a new account that never signed in has no trial credit yet', async () => {
    const user = await createAccount(t.deps, { email: 'fresh@example.com', passwordHash: null });
    const token = await issueTestToken(t.deps, user);
    const res = await callApi(t.app, 'GET', '/user/info', { token });
    expect(res.json().data).toMatchObject({ balance: 0, trial_credit: 0, total_balance: 0, name: 'fresh' });
  });

  it('derives a unique username from the e-mail for accounts created without one', async () => {
    const first = await createAccount(t.deps, { email: 'same.name@example.com', passwordHash: null });
    const second = await createAccount(t.deps, { email: 'same.name@other.example', passwordHash: null });
    const tiny = await createAccount(t.deps, { email: 'x@example.net', passwordHash: null });
    expect(first.username).toBe('same.name');
    expect(second.username).toMatch(/^same\.name_\d{5}$/);
    expect(tiny.username).toBe('user');
  });

  it('PUT /user/profile changes the username; a taken one (any case) is USERNAME_TAKEN; bad length is refused', async () => {
    const token = await registerUser(t.app, mailer, { email: 'jack@example.com', username: 'jack' });
    const res = await callApi(t.app, 'PUT', '/user/profile', { token, body: { username: 'Jackie' } });
    expect(res.json()).toMatchObject({ code: 0, data: { name: 'Jackie' } });
    const caseOnly = await callApi(t.app, 'PUT', '/user/profile', { token, body: { username: 'JACKIE' } });
    expect(caseOnly.json()).toMatchObject({ code: 0, data: { name: 'JACKIE' } });
    const taken = await callApi(t.app, 'PUT', '/user/profile', { token, body: { username: 'IVY' }, lang: 'zh' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 1003, msg: '用户名已被使用' });
    const short = await callApi(t.app, 'PUT', '/user/profile', { token, body: { username: 'j' }, lang: 'en' });
    expect(short.statusCode).toBe(400);
    expect(short.json().msg).toBe('Username must be 2-20 characters');
    expect((await findUser('jack@example.com')).username).toBe('JACKIE');
  });

  it('POST /user/change_email moves the account to a new address proved by a code sent there', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'kate@example.com',
      username: 'kate',
      password: 'kate-password',
    });
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'kate.new@example.com', type: 'change_email' });
    const code = codeSentTo(mailer, 'kate.new@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await callApi(t.app, 'POST', '/user/change_email', {
      token,
      body: { email: 'kate.new@example.com', code: wrong },
    });
    expect(bad.json().code).toBe(1004);
    expect(await findUser('kate@example.com')).toBeDefined();
    const res = await callApi(t.app, 'POST', '/user/change_email', {
      token,
      body: { email: 'Kate.New@example.com', code },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { email: 'kate.new@example.com' } });
    expect(
      (await postForm(t.app, '/user/login', { email: 'kate.new@example.com', password: 'kate-password' })).json().code,
    ).toBe(0);
    expect(
      (await postForm(t.app, '/user/login', { email: 'kate@example.com', password: 'kate-password' })).json().code,
    ).toBe(1001);
  });

  it('change_email: the same address is EMAIL_UNCHANGED, an address in use is EMAIL_TAKEN, and no code goes to it', async () => {
    const token = await registerUser(t.app, mailer, { email: 'liam@example.com', username: 'liam' });
    const same = await callApi(t.app, 'POST', '/user/change_email', {
      token,
      body: { email: 'liam@example.com', code: '123456' },
      lang: 'en',
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 1013, msg: 'The new e-mail is the same as the current one' });
    clock.advance(CODE_RESEND_MS);
    const before = mailer.sent.length;
    const sent = await postForm(t.app, '/user/code', { email: 'ivy@example.com', type: 'change_email' });
    expect(sent.json().code).toBe(0);
    expect(mailer.sent.length).toBe(before);
    const taken = await callApi(t.app, 'POST', '/user/change_email', {
      token,
      body: { email: 'ivy@example.com', code: '123456' },
      lang: 'en',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe(1002);
    const badEmail = await callApi(t.app, 'POST', '/user/change_email', {
      token,
      body: { email: 'nope', code: '123456' },
      lang: 'en',
    });
    expect(badEmail.json().msg).toBe('Please enter a valid e-mail address');
  });

  it('POST /user/change_password answers a new session and signs out the others', async () => {
    const oldToken = await registerUser(t.app, mailer, {
      email: 'mia@example.com',
      username: 'mia',
      password: 'mia-password',
    });
    const other = (await postForm(t.app, '/user/login', { email: 'mia', password: 'mia-password' })).json().data
      .token as string;
    const res = await callApi(t.app, 'POST', '/user/change_password', {
      token: oldToken,
      body: { current_password: 'mia-password', password: 'mia-new-password', confirm_password: 'mia-new-password' },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { is_new_user: false, expires_in: 216000 } });
    const newToken = res.json().data.token as string;
    expect((await callApi(t.app, 'GET', '/user/info', { token: newToken })).json().code).toBe(0);
    for (const revoked of [oldToken, other]) {
      expect((await callApi(t.app, 'GET', '/user/info', { token: revoked })).json().code).toBe(-401);
    }
    expect((await postForm(t.app, '/user/login', { email: 'mia', password: 'mia-new-password' })).json().code).toBe(0);
    expect((await postForm(t.app, '/user/login', { email: 'mia', password: 'mia-password' })).json().code).toBe(1001);
    expect(mailer.last('mia@example.com')?.subject).toContain('password was changed');
  });

  it('change_password: a wrong current password is PASSWORD_INCORRECT and changes nothing; the form rules apply', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'noah@example.com',
      username: 'noah',
      password: 'noah-password',
    });
    const wrong = await callApi(t.app, 'POST', '/user/change_password', {
      token,
      lang: 'zh',
      body: { current_password: 'not-it-at-all', password: 'noah-new-password', confirm_password: 'noah-new-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 1008, msg: '当前密码不正确' });
    expect((await callApi(t.app, 'GET', '/user/info', { token })).json().code).toBe(0);
    const mismatch = await callApi(t.app, 'POST', '/user/change_password', {
      token,
      lang: 'en',
      body: {
        current_password: 'noah-password',
        password: 'noah-new-password',
        confirm_password: 'noah-other-password',
      },
    });
    expect(mismatch.json().msg).toBe('The two passwords you entered are inconsistent');
    const short = await callApi(t.app, 'POST', '/user/change_password', {
      token,
      lang: 'en',
      body: { current_password: 'noah-password', password: 'short', confirm_password: 'short' },
    });
    expect(short.json().msg).toBe('Password must be at least 8 characters');
    expect((await postForm(t.app, '/user/login', { email: 'noah', password: 'noah-password' })).json().code).toBe(0);
  });

  it('change_password: a new password equal to the current one is refused in zh and en, and the sessions stay', async () => {
    const token = await registerUser(t.app, mailer, {
      email: 'same@example.com',
      username: 'samepw',
      password: 'same-password',
    });
    for (const [lang, msg] of [
      ['zh', '新密码不能与当前密码相同'],
      ['en', 'The new password must differ from the current one'],
    ] as const) {
      const res = await callApi(t.app, 'POST', '/user/change_password', {
        token,
        lang,
        body: { current_password: 'same-password', password: 'same-password', confirm_password: 'same-password' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 1043, msg, data: { error: 'PASSWORD_UNCHANGED' } });
    }
    expect((await callApi(t.app, 'GET', '/user/info', { token })).json().code).toBe(0);
    expect(mailer.last('same@example.com')?.subject ?? '').not.toContain('password was changed');
  });

  it('change_password: an account without a password (GitHub or Google) must use the reset flow', async () => {
    const user = await createAccount(t.deps, { email: 'oauth@example.com', passwordHash: null });
    const token = await issueTestToken(t.deps, user);
    const res = await callApi(t.app, 'POST', '/user/change_password', {
      token,
      body: {
        current_password: 'anything-at-all',
        password: 'brand-new-password',
        confirm_password: 'brand-new-password',
      },
    });
    expect(res.json().code).toBe(1008);
  });

  it('every user-center call needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/user/info'],
      ['PUT', '/user/profile'],
      ['POST', '/user/change_email'],
      ['POST', '/user/change_password'],
      ['GET', '/user/refresh_token'],
      ['POST', '/user/logout'],
    ] as const) {
      const res = await callApi(t.app, method, url, { body: {} });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code, url).toBe(401);
    }
  });
});

describe('unique-index races', () => {
  it('a duplicate e-mail or username reaching the database is reported by constraint name', async () => {
    const t = await createTestApp();
    try {
      const base = {
        passwordHash: null,
        apiKey: 'pk_a',
        inviteCode: 'AAAA0000',
        username: 'racer',
        email: 'racer@example.com',
      };
      await insertUser(t.db.db, base);
      const sameEmail = await insertUser(t.db.db, {
        ...base,
        apiKey: 'pk_b',
        inviteCode: 'BBBB0000',
        username: 'other',
      }).catch((e: unknown) => e);
      expect(uniqueViolationOf(sameEmail)).toBe('users_email_key');
      const sameName = await insertUser(t.db.db, {
        ...base,
        apiKey: 'pk_c',
        inviteCode: 'CCCC0000',
        email: 'x@example.com',
        username: 'RACER',
      }).catch((e: unknown) => e);
      expect(uniqueViolationOf(sameName)).toBe('users_username_key');
      expect(uniqueViolationOf(new Error('other'))).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
