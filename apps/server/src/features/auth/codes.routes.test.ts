import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS, CODE_TTL_MS } from '@proxy/contract';
import { emailCodes, users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { createMailer } from '../../lib/mailer';
import { codeSentTo, postForm, registerUser } from './auth-test-kit';

describe('verification codes (/user/code)', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
  });
  afterAll(async () => {
    await t.close();
  });

  const registerForm = (email: string, code: string, username = email.split('@')[0]) => ({
    username,
    email,
    password: 'password-123',
    confirm_password: 'password-123',
    code,
  });

  async function countUsers(email: string): Promise<number> {
    return (await t.db.db.select().from(users).where(eq(users.email, email))).length;
  }

  it('e-mails a 6-digit code in the Lang language and stores only its hash', async () => {
    const res = await postForm(
      t.app,
      '/user/code',
      { email: 'Code1@Example.com', type: 'register' },
      { lang: 'zh-CN' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, msg: '成功', data: { resend_after: 60 } });
    const mail = mailer.last('code1@example.com');
    expect(mail?.subject).toContain('验证码');
    const code = codeSentTo(mailer, 'code1@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await t.db.db.select().from(emailCodes).where(eq(emailCodes.email, 'code1@example.com'));
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(CODE_TTL_MS);

    await postForm(t.app, '/user/code', { email: 'code1-en@example.com', type: 'register' }, { lang: 'en' });
    expect(mailer.last('code1-en@example.com')?.subject).toContain('verification code');
  });

  it('rejects a bad e-mail or type with a translated message and sends nothing', async () => {
    const before = mailer.sent.length;
    const en = await postForm(t.app, '/user/code', { email: 'not-an-email', type: 'register' }, { lang: 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      code: 400,
      msg: 'Please enter a valid e-mail address',
      data: { error: 'BAD_REQUEST' },
    });
    const zh = await postForm(t.app, '/user/code', { email: 'not-an-email', type: 'register' }, { lang: 'zh' });
    expect(zh.json().msg).toBe('请输入有效的邮箱地址');
    const badType = await postForm(t.app, '/user/code', { email: 'x@example.com', type: 'login' }, { lang: 'en' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().data.issues[0].path).toBe('type');
    const missing = await postForm(t.app, '/user/code', { type: 'register' }, { lang: 'en' });
    expect(missing.json().msg).toBe('email: This field is required');
    expect(mailer.sent.length).toBe(before);
  });

  it('sends at most one code per address per minute (CODE_TOO_FREQUENT with the seconds left)', async () => {
    const email = 'throttle@example.com';
    expect((await postForm(t.app, '/user/code', { email, type: 'register' })).json().code).toBe(0);
    clock.advance(15_000);
    const again = await postForm(t.app, '/user/code', { email, type: 'reset' }, { lang: 'en' });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      code: 1005,
      msg: 'Codes are sent at most once a minute; try again in 45 s',
      data: { error: 'CODE_TOO_FREQUENT' },
    });
    const zh = await postForm(t.app, '/user/code', { email, type: 'register' }, { lang: 'zh' });
    expect(zh.json().msg).toBe('验证码发送过于频繁，请 45 秒后再试');
    clock.advance(CODE_RESEND_MS - 15_000);
    expect((await postForm(t.app, '/user/code', { email, type: 'register' })).json().code).toBe(0);
  });

  it('does not tell whether an account exists: reset for an unknown e-mail answers the same and sends nothing', async () => {
    await registerUser(t.app, mailer, { email: 'known@example.com', username: 'known' });
    clock.advance(CODE_RESEND_MS);
    const before = mailer.sent.length;
    const known = await postForm(t.app, '/user/code', { email: 'known@example.com', type: 'reset' }, { lang: 'en' });
    const unknown = await postForm(t.app, '/user/code', { email: 'nobody@example.com', type: 'reset' }, { lang: 'en' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(mailer.sent.length).toBe(before + 1);
    expect(mailer.last()?.to).toBe('known@example.com');
    // The throttle behaves the same too.
    const knownAgain = await postForm(
      t.app,
      '/user/code',
      { email: 'known@example.com', type: 'reset' },
      { lang: 'en' },
    );
    const unknownAgain = await postForm(
      t.app,
      '/user/code',
      { email: 'nobody@example.com', type: 'reset' },
      { lang: 'en' },
    );
    expect(unknownAgain.statusCode).toBe(429);
    expect(unknownAgain.json()).toEqual(knownAgain.json());
    // A register code for an address that has an account: the same answer; its owner is told the account exists.
    clock.advance(CODE_RESEND_MS);
    const count = mailer.sent.length;
    const registerKnown = await postForm(
      t.app,
      '/user/code',
      { email: 'known@example.com', type: 'register' },
      { lang: 'en' },
    );
    const registerNew = await postForm(
      t.app,
      '/user/code',
      { email: 'brand-new@example.com', type: 'register' },
      { lang: 'en' },
    );
    expect(registerKnown.statusCode).toBe(registerNew.statusCode);
    expect(registerKnown.json()).toEqual(registerNew.json());
    expect(mailer.sent.slice(count).map((m) => [m.to, m.subject])).toEqual([
      ['known@example.com', 'ProxyHub: you already have an account'],
      ['brand-new@example.com', expect.stringContaining('verification code')],
    ]);
    // The throttle behaves the same too.
    const knownRegisterAgain = await postForm(
      t.app,
      '/user/code',
      { email: 'known@example.com', type: 'register' },
      { lang: 'en' },
    );
    const newAgain = await postForm(
      t.app,
      '/user/code',
      { email: 'brand-new@example.com', type: 'register' },
      { lang: 'en' },
    );
    expect(knownRegisterAgain.statusCode).toBe(429);
    expect(knownRegisterAgain.json()).toEqual(newAgain.json());
  });

  it('a code expires after 10 minutes (and the failed register creates nothing)', async () => {
    const email = 'expiry@example.com';
    await postForm(t.app, '/user/code', { email, type: 'register' });
    const code = codeSentTo(mailer, email);
    clock.advance(CODE_TTL_MS);
    const res = await postForm(t.app, '/user/register', registerForm(email, code), { lang: 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 1004,
      msg: 'The verification code is wrong or has expired',
      data: { error: 'CODE_INVALID' },
    });
    expect(await countUsers(email)).toBe(0);
  });

  it('a code is still good just before it expires', async () => {
    const email = 'almost@example.com';
    await postForm(t.app, '/user/code', { email, type: 'register' });
    const code = codeSentTo(mailer, email);
    clock.advance(CODE_TTL_MS - 1000);
    const res = await postForm(t.app, '/user/register', registerForm(email, code));
    expect(res.json().code).toBe(0);
  });

  it('5 wrong tries void a code; 4 do not', async () => {
    const four = 'four-tries@example.com';
    await postForm(t.app, '/user/code', { email: four, type: 'register' });
    const fourCode = codeSentTo(mailer, four);
    const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
    for (let i = 0; i < 4; i += 1) {
      expect((await postForm(t.app, '/user/register', registerForm(four, wrongFor(fourCode)))).json().code).toBe(1004);
    }
    expect((await postForm(t.app, '/user/register', registerForm(four, fourCode))).json().code).toBe(0);

    const five = 'five-tries@example.com';
    await postForm(t.app, '/user/code', { email: five, type: 'register' });
    const fiveCode = codeSentTo(mailer, five);
    for (let i = 0; i < 5; i += 1) {
      expect((await postForm(t.app, '/user/register', registerForm(five, wrongFor(fiveCode)))).json().code).toBe(1004);
    }
    const right = await postForm(t.app, '/user/register', registerForm(five, fiveCode));
    expect(right.json().code).toBe(1004);
    expect(await countUsers(five)).toBe(0);
  });

  it('a code works once', async () => {
    await registerUser(t.app, mailer, { email: 'once@example.com', username: 'once', password: 'first-password' });
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'once@example.com', type: 'reset' });
    const code = codeSentTo(mailer, 'once@example.com');
    const form = { email: 'once@example.com', code, password: 'second-password', confirm_password: 'second-password' };
    expect((await postForm(t.app, '/user/reset_password', form)).json().code).toBe(0);
    const replay = await postForm(t.app, '/user/reset_password', {
      ...form,
      password: 'third-password',
      confirm_password: 'third-password',
    });
    expect(replay.json().code).toBe(1004);
    expect(
      (await postForm(t.app, '/user/login', { email: 'once@example.com', password: 'second-password' })).json().code,
    ).toBe(0);
  });

  it('a newer code replaces the older one', async () => {
    const email = 'newer@example.com';
    await postForm(t.app, '/user/code', { email, type: 'register' });
    const first = codeSentTo(mailer, email);
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email, type: 'register' });
    const second = codeSentTo(mailer, email);
    if (first !== second) {
      expect((await postForm(t.app, '/user/register', registerForm(email, first))).json().code).toBe(1004);
    }
    expect((await postForm(t.app, '/user/register', registerForm(email, second))).json().code).toBe(0);
  });

  it('a code for one purpose does not work for another', async () => {
    await registerUser(t.app, mailer, { email: 'purpose@example.com', username: 'purpose' });
    clock.advance(CODE_RESEND_MS);
    await postForm(t.app, '/user/code', { email: 'fresh-purpose@example.com', type: 'register' });
    const code = codeSentTo(mailer, 'fresh-purpose@example.com');
    const res = await postForm(t.app, '/user/reset_password', {
      email: 'fresh-purpose@example.com',
      code,
      password: 'password-123',
      confirm_password: 'password-123',
    });
    expect(res.json().code).toBe(1004);
  });
});

describe('verification codes when mail cannot be sent', () => {
  it('answers MAIL_SEND_FAILED and lets the address ask again at once', async () => {
    // A real SMTP client pointed at a closed port.
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'test@example.com', outboxDir: '/nonexistent' });
    const t = await createTestApp({ mailer });
    try {
      const res = await postForm(t.app, '/user/code', { email: 'down@example.com', type: 'register' }, { lang: 'en' });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 1009, msg: 'Failed to send the verification code' });
      const again = await postForm(
        t.app,
        '/user/code',
        { email: 'down@example.com', type: 'register' },
        { lang: 'zh' },
      );
      expect(again.json()).toMatchObject({ code: 1009, msg: '验证码发送失败' });
      expect(await t.db.db.select().from(emailCodes)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('verification codes under concurrency', () => {
  itOnPostgres('parallel requests for one address send one code', async () => {
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          postForm(t.app, '/user/code', { email: 'rush@example.com', type: 'register' }, { ip: `10.5.5.${i}` }),
        ),
      );
      const codes = results.map((r) => r.json().code).sort();
      expect(codes).toEqual([0, ...Array(7).fill(1005)]);
      expect(mailer.sent.filter((m) => m.to === 'rush@example.com')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  itOnPostgres('parallel registrations with one code create one account', async () => {
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer });
    try {
      await postForm(t.app, '/user/code', { email: 'twin@example.com', type: 'register' });
      const code = codeSentTo(mailer, 'twin@example.com');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          postForm(
            t.app,
            '/user/register',
            {
              username: `twin${i}`,
              email: 'twin@example.com',
              password: 'password-123',
              confirm_password: 'password-123',
              code,
            },
            { ip: `10.6.6.${i}` },
          ),
        ),
      );
      expect(results.filter((r) => r.json().code === 0)).toHaveLength(1);
      expect(await t.db.db.select().from(users).where(eq(users.email, 'twin@example.com'))).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
