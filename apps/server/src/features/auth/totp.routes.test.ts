import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS } from '@proxy/contract';
import { createSecretBox, userRecoveryCodes, userSessions, userTotp } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres } from '../../../test/helpers';
import { startLocalOAuthProviders, type TLocalOAuthProviders } from '../../../test/oauth-providers';
import { createAdmin, createUser, type TTestUser } from '../proxies/proxies-test-kit';
import { callApi, codeSentTo, postForm } from './auth-test-kit';
import { hashRecoveryCode, TOTP_SECRET_PURPOSE } from './totp.service';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

describe('two-factor sign-in (TOTP)', () => {
  const clock = createFakeClock(new Date('2026-03-01T10:00:00Z'));
  const mailer = createMemoryMailer();
  let providers: TLocalOAuthProviders;
  let t: TTestApp;

  beforeAll(async () => {
    providers = await startLocalOAuthProviders();
    t = await createTestApp({ clock, mailer, config: { ...providers.env } });
  });
  afterAll(async () => {
    await t?.close();
    await providers?.close();
  });

  /** The authenticator's code at the fake clock's time (plus an offset in seconds). */
  function codeAt(secret: string, offsetS = 0): Promise<string> {
    return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + offsetS });
  }

  /** Moves the fake clock to the start of the next 30-second step. */
  function nextStep(): void {
    const ms = clock.now().getTime();
    clock.set(new Date(Math.floor(ms / 30_000) * 30_000 + 30_000));
  }

  async function enrol(user: TTestUser): Promise<{ secret: string; recovery: string[] }> {
    const setup = await callApi(t.app, 'POST', '/user/totp/setup', { token: user.token });
    expect(setup.json().code).toBe(0);
    const { secret, otpauth_url } = setup.json().data as { secret: string; otpauth_url: string };
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain(encodeURIComponent(user.email));
    const enabled = await callApi(t.app, 'POST', '/user/totp/enable', {
      token: user.token,
      body: { code: await codeAt(secret) },
    });
    expect(enabled.json().code).toBe(0);
    nextStep();
    return { secret, recovery: enabled.json().data.recovery_codes as string[] };
  }

  async function passwordLogin(email: string, lang = 'en') {
    return postForm(t.app, '/user/login', { email, password: 'correct horse' }, { lang });
  }

  async function loginTotp(challenge: string, code: string, lang = 'en') {
    return postForm(t.app, '/user/login/totp', { challenge, code }, { lang });
  }

  it('enrols with a secret, a QR URL and a current code; answers 10 recovery codes stored only as hashes', async () => {
    const user = await createUser(t.app, mailer, 'enrol');
    const before = await callApi(t.app, 'GET', '/user/totp', { token: user.token });
    expect(before.json().data).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
      admin_required: false,
    });

    // Enabling before the set-up, and with a wrong code, is refused.
    const early = await callApi(t.app, 'POST', '/user/totp/enable', { token: user.token, body: { code: '123456' } });
    expect(early.json().data.error).toBe('TOTP_SETUP_REQUIRED');
    const setup = await callApi(t.app, 'POST', '/user/totp/setup', { token: user.token });
    const { secret } = setup.json().data as { secret: string };
    const wrong = await callApi(t.app, 'POST', '/user/totp/enable', {
      token: user.token,
      body: { code: (await codeAt(secret, 600)) === '000000' ? '111111' : '000000' },
    });
    expect(wrong.json().data.error).toBe('TOTP_INVALID_CODE');
    expect(wrong.json().msg).toBe('The authentication code or recovery code is incorrect');
    const badFormat = await callApi(t.app, 'POST', '/user/totp/enable', {
      token: user.token,
      body: { code: 'abc' },
      lang: 'zh',
    });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().data.issues[0]).toMatchObject({ path: 'code' });

    const enabled = await callApi(t.app, 'POST', '/user/totp/enable', {
      token: user.token,
      body: { code: await codeAt(secret) },
    });
    expect(enabled.json().code).toBe(0);
    const codes = enabled.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const stored = await t.deps.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, user.userId));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]);

    const status = await callApi(t.app, 'GET', '/user/totp', { token: user.token });
    expect(status.json().data).toMatchObject({
      enabled: true,
      enabled_at: clock.now().toISOString(),
      recovery_codes_left: 10,
    });
    // A second set-up while on is refused: the secret stays.
    const again = await callApi(t.app, 'POST', '/user/totp/setup', { token: user.token });
    expect(again.json().data.error).toBe('TOTP_ALREADY_ENABLED');
  });

  it('password sign-in stops at the code step; a current code starts the session, the same code again is refused', async () => {
    const user = await createUser(t.app, mailer, 'signin');
    const { secret } = await enrol(user);
    const first = await passwordLogin(user.email);
    expect(first.json().code).toBe(0);
    const step = first.json().data as { totp_required: boolean; challenge: string; expires_in: number; token?: string };
    expect(step).toMatchObject({ totp_required: true, expires_in: 300 });
    expect(step.token).toBeUndefined();
    // A challenge is no access token.
    const asToken = await callApi(t.app, 'GET', '/user/info', { token: step.challenge });
    expect(asToken.statusCode).toBe(401);

    const code = await codeAt(secret);
    const done = await loginTotp(step.challenge, code);
    expect(done.json().code).toBe(0);
    const token = done.json().data.token as string;
    const claims = await t.deps.jwt.verify(token);
    const [session] = await t.deps.db.select().from(userSessions).where(eq(userSessions.id, claims!.sessionId));
    expect(session).toMatchObject({ userId: user.userId, method: 'password' });
    expect((await callApi(t.app, 'GET', '/user/info', { token })).json().code).toBe(0);

    // The same code, within its window, on a new sign-in: refused.
    const second = await passwordLogin(user.email);
    const reused = await loginTotp(second.json().data.challenge, code, 'zh');
    expect(reused.json().data.error).toBe('TOTP_INVALID_CODE');
    expect(reused.json().msg).toBe('动态验证码或恢复码错误');
    // A code of the previous step (older than the one used) too.
    expect((await loginTotp(second.json().data.challenge, await codeAt(secret, -30))).json().data.error).toBe(
      'TOTP_INVALID_CODE',
    );
    // The next step's code works (clock drift of one step is accepted).
    nextStep();
    expect((await loginTotp(second.json().data.challenge, await codeAt(secret))).json().code).toBe(0);
  });

  it('keeps the secret encrypted at rest; a secret stored in plain before still signs in and is encrypted then; another key fails clearly', async () => {
    const user = await createUser(t.app, mailer, 'sealed');
    const { secret } = await enrol(user);
    const stored = async () =>
      (await t.deps.db.select({ secret: userTotp.secret }).from(userTotp).where(eq(userTotp.userId, user.userId)))[0]
        .secret;
    const sealed = await stored();
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain(secret);
    const box = createSecretBox(t.deps.config.dataEncryptionKey);
    expect(box.open(sealed, TOTP_SECRET_PURPOSE)).toEqual({ plain: secret, isSealed: true });

    // A row written before encryption: the plain secret signs in, and that read seals it.
    await t.deps.db.update(userTotp).set({ secret }).where(eq(userTotp.userId, user.userId));
    const first = await passwordLogin(user.email);
    const done = await loginTotp(first.json().data.challenge, await codeAt(secret));
    expect(done.json().code).toBe(0);
    const resealed = await stored();
    expect(resealed).toMatch(/^enc:v1:/);
    expect(box.open(resealed, TOTP_SECRET_PURPOSE).plain).toBe(secret);

    // Sealed under another DATA_ENCRYPTION_KEY (a server started with the wrong key): the code step fails with a 500, never signs in.
    nextStep();
    await t.deps.db
      .update(userTotp)
      .set({ secret: createSecretBox(Buffer.alloc(32, 9)).seal(secret, TOTP_SECRET_PURPOSE) })
      .where(eq(userTotp.userId, user.userId));
    const second = await passwordLogin(user.email);
    const refused = await loginTotp(second.json().data.challenge, await codeAt(secret));
    expect(refused.statusCode).toBe(500);
    expect(refused.json().data?.token).toBeUndefined();
  });

  it('refuses a wrong code, an expired challenge, a forged one and one of a signed-out-everywhere account', async () => {
    const user = await createUser(t.app, mailer, 'expire');
    const { secret } = await enrol(user);
    const { challenge } = (await passwordLogin(user.email)).json().data as { challenge: string };
    const current = await codeAt(secret);
    const wrong = current === '999999' ? '000000' : String((Number(current) + 1) % 1_000_000).padStart(6, '0');
    expect((await loginTotp(challenge, wrong)).json().data.error).toBe('TOTP_INVALID_CODE');
    expect((await loginTotp(`${challenge}x`, current)).json().data.error).toBe('TOTP_CHALLENGE_EXPIRED');

    clock.advance(301_000);
    const expired = await loginTotp(challenge, await codeAt(secret));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().data.error).toBe('TOTP_CHALLENGE_EXPIRED');
    expect(expired.json().msg).toBe('The two-factor step has expired; please sign in again');

    const fresh = (await passwordLogin(user.email)).json().data.challenge as string;
    const relogin = (await loginTotp(fresh, await codeAt(secret))).json().data.token as string;
    nextStep();
    const pending = (await passwordLogin(user.email)).json().data.challenge as string;
    expect((await callApi(t.app, 'POST', '/user/logout/all', { token: relogin })).json().code).toBe(0);
    expect((await loginTotp(pending, await codeAt(secret))).json().data.error).toBe('TOTP_CHALLENGE_EXPIRED');
  });

  it('a recovery code signs in once; regenerating needs a current code and voids the old codes', async () => {
    const user = await createUser(t.app, mailer, 'recover');
    const { secret, recovery } = await enrol(user);
    const challenge = (await passwordLogin(user.email)).json().data.challenge as string;
    const signed = await loginTotp(challenge, recovery[0].toUpperCase().replace('-', ' '));
    expect(signed.json().code).toBe(0);
    const again = await loginTotp((await passwordLogin(user.email)).json().data.challenge as string, recovery[0]);
    expect(again.json().data.error).toBe('TOTP_INVALID_CODE');
    expect(
      (await callApi(t.app, 'GET', '/user/totp', { token: signed.json().data.token })).json().data.recovery_codes_left,
    ).toBe(9);

    const token = signed.json().data.token as string;
    const noCode = await callApi(t.app, 'POST', '/user/totp/recovery_codes', { token, body: { code: recovery[1] } });
    expect(noCode.statusCode).toBe(400);
    const renewed = await callApi(t.app, 'POST', '/user/totp/recovery_codes', {
      token,
      body: { code: await codeAt(secret) },
    });
    expect(renewed.json().code).toBe(0);
    const fresh = renewed.json().data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    const old = await loginTotp((await passwordLogin(user.email)).json().data.challenge as string, recovery[1]);
    expect(old.json().data.error).toBe('TOTP_INVALID_CODE');
    expect(
      (await loginTotp((await passwordLogin(user.email)).json().data.challenge as string, fresh[0])).json().code,
    ).toBe(0);
  });

  it('disabling needs a current code or a recovery code; then sign-in answers the session again', async () => {
    const user = await createUser(t.app, mailer, 'disable');
    const { secret, recovery } = await enrol(user);
    const refused = await callApi(t.app, 'POST', '/user/totp/disable', {
      token: user.token,
      body: { code: 'zzzzz-zzzzz' },
    });
    expect(refused.json().data.error).toBe('TOTP_INVALID_CODE');
    const off = await callApi(t.app, 'POST', '/user/totp/disable', { token: user.token, body: { code: recovery[3] } });
    expect(off.json().code).toBe(0);
    expect((await callApi(t.app, 'GET', '/user/totp', { token: user.token })).json().data.enabled).toBe(false);
    expect((await passwordLogin(user.email)).json().data.token).toEqual(expect.any(String));

    // Again, turned off with a current code.
    const second = await enrol(user);
    expect(second.secret).not.toBe(secret);
    const offByCode = await callApi(t.app, 'POST', '/user/totp/disable', {
      token: user.token,
      body: { code: await codeAt(second.secret) },
    });
    expect(offByCode.json().code).toBe(0);
    const notOn = await callApi(t.app, 'POST', '/user/totp/disable', { token: user.token, body: { code: '123456' } });
    expect(notOn.json().data.error).toBe('TOTP_NOT_ENABLED');
  });

  it('registering with an existing e-mail and password asks for the code too', async () => {
    const user = await createUser(t.app, mailer, 'regexist');
    const { secret } = await enrol(user);
    clock.advance(CODE_RESEND_MS);
    expect((await postForm(t.app, '/user/code', { email: user.email, type: 'register' })).json().code).toBe(0);
    const res = await postForm(t.app, '/user/register', {
      username: 'regexist2',
      email: user.email,
      password: 'correct horse',
      confirm_password: 'correct horse',
      code: codeSentTo(mailer, user.email),
    });
    expect(res.json().data).toMatchObject({ totp_required: true });
    const done = await loginTotp(res.json().data.challenge as string, await codeAt(secret));
    expect(done.json().code).toBe(0);
  });

  it('GitHub and Google sign-ins ask for the code, and the session keeps the provider as its method', async () => {
    for (const provider of ['github', 'google'] as const) {
      const person = {
        id: provider === 'github' ? 9101 : 'g-9101',
        login: 'twofa',
        email: `oauth-${provider}@example.com`,
        verified: true,
      };
      if (provider === 'github') providers.setGithubUser(person);
      else providers.setGoogleUser(person);
      const viaProvider = async () => {
        const started = await t.app.inject({
          method: 'GET',
          url: `/api/user/oauth/${provider}/authorize?redirect_uri=${encodeURIComponent('http://127.0.0.1:8080/login/oauth-callback')}`,
        });
        const back = await fetch(started.json().data.url as string, { redirect: 'manual' });
        const location = new URL(back.headers.get('location')!);
        return postForm(t.app, `/user/${provider}/verify`, {
          code: location.searchParams.get('code')!,
          state: location.searchParams.get('state')!,
        });
      };
      const created = await viaProvider();
      expect(created.json().data.is_new_user).toBe(true);
      const user = { token: created.json().data.token as string, userId: 0, email: person.email };
      const { secret } = await enrol(user);
      const step = await viaProvider();
      expect(step.json().data).toMatchObject({ totp_required: true });
      const done = await loginTotp(step.json().data.challenge as string, await codeAt(secret));
      const claims = await t.deps.jwt.verify(done.json().data.token as string);
      const [session] = await t.deps.db.select().from(userSessions).where(eq(userSessions.id, claims!.sessionId));
      expect(session.method).toBe(provider);
    }
  });

  it('enabling two-factor ends every other session of the account; the one that enabled it goes on', async () => {
    const user = await createUser(t.app, mailer, 'others');
    const older = (await passwordLogin(user.email)).json().data.token as string;
    expect((await callApi(t.app, 'GET', '/user/info', { token: older })).json().code).toBe(0);
    await enrol(user);
    for (const [method, path] of [
      ['GET', '/user/info'],
      ['GET', '/user/refresh_token'],
    ] as const) {
      const res = await callApi(t.app, method, path, { token: older });
      expect(res.json().code, `${path} with a session opened before`).toBe(-401);
    }
    expect((await callApi(t.app, 'GET', '/user/info', { token: user.token })).json().code).toBe(0);
    expect((await callApi(t.app, 'GET', '/user/refresh_token', { token: user.token })).json().code).toBe(0);
  });

  /** Live sessions of an account. */
  async function liveSessions(userId: number): Promise<number> {
    const rows = await t.deps.db.select().from(userSessions).where(eq(userSessions.userId, userId));
    return rows.filter((r) => r.endedAt === null).length;
  }

  it("a challenge is spent by its first success: the next step's code, or a recovery code, on it again is refused", async () => {
    const user = await createUser(t.app, mailer, 'once');
    const { secret, recovery } = await enrol(user);
    const before = await liveSessions(user.userId);
    const { challenge } = (await passwordLogin(user.email)).json().data as { challenge: string };
    expect((await loginTotp(challenge, await codeAt(secret))).json().code).toBe(0);
    for (const code of [await codeAt(secret, 30), recovery[0]]) {
      for (const lang of ['en', 'zh'] as const) {
        const again = await loginTotp(challenge, code, lang);
        expect(again.json().data.error, again.body).toBe('TOTP_CHALLENGE_EXPIRED');
      }
    }
    expect(await liveSessions(user.userId)).toBe(before + 1);
    // The recovery code was not spent by the refused call: it signs in once on a new challenge.
    nextStep();
    const fresh = (await passwordLogin(user.email)).json().data.challenge as string;
    expect((await loginTotp(fresh, recovery[0])).json().code).toBe(0);
    expect((await loginTotp(fresh, await codeAt(secret))).json().data.error).toBe('TOTP_CHALLENGE_EXPIRED');
    expect(await liveSessions(user.userId)).toBe(before + 2);
  });

  itOnPostgres(
    "two concurrent finishes of one challenge (this and the next step's code) start one session",
    async () => {
      const user = await createUser(t.app, mailer, 'race');
      const { secret } = await enrol(user);
      for (let round = 0; round < 5; round += 1) {
        nextStep();
        const before = await liveSessions(user.userId);
        const { challenge } = (await passwordLogin(user.email)).json().data as { challenge: string };
        const answers = await Promise.all([
          loginTotp(challenge, await codeAt(secret)),
          loginTotp(challenge, await codeAt(secret, 30)),
        ]);
        expect(answers.map((a) => a.json().code).filter((code) => code === 0)).toHaveLength(1);
        expect(await liveSessions(user.userId)).toBe(before + 1);
        // The next round's codes are two steps on.
        nextStep();
      }
    },
  );

  it('a password change answers the new session without asking for a code', async () => {
    const user = await createUser(t.app, mailer, 'changer');
    await enrol(user);
    const res = await callApi(t.app, 'POST', '/user/change_password', {
      token: user.token,
      body: { current_password: 'correct horse', password: 'battery staple', confirm_password: 'battery staple' },
    });
    expect(res.json().code).toBe(0);
    expect(res.json().data.token).toEqual(expect.any(String));
  });

  it('operators can require two-factor for the operator area', async () => {
    const oper = await createAdmin(t.app, t.deps, mailer, 'operator');
    const other = await createAdmin(t.app, t.deps, mailer, 'operator2');
    // Turning it on without two-factor on one's own account is refused (no lock-out).
    const early = await callApi(t.app, 'PUT', '/admin/system/settings', {
      token: oper.token,
      body: { admin_totp_required: true },
    });
    expect(early.json().data.error).toBe('TOTP_REQUIRED_FOR_ADMIN');
    await enrol(oper);
    const on = await callApi(t.app, 'PUT', '/admin/system/settings', {
      token: oper.token,
      body: { admin_totp_required: true },
    });
    expect(on.json()).toMatchObject({ code: 0, data: { admin_totp_required: true } });
    expect(
      (await callApi(t.app, 'GET', '/admin/system/settings', { token: oper.token })).json().data.admin_totp_required,
    ).toBe(true);

    const refused = await callApi(t.app, 'GET', '/admin/system/settings', { token: other.token, lang: 'zh' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data.error).toBe('TOTP_REQUIRED_FOR_ADMIN');
    expect(refused.json().msg).toContain('用户中心');
    const refusedEn = await callApi(t.app, 'GET', '/admin/site/notice', { token: other.token, lang: 'en' });
    expect(refusedEn.json().msg).toContain('user centre');
    // The user centre stays open: the status tells the operator, and enrolment works.
    expect((await callApi(t.app, 'GET', '/user/totp', { token: other.token })).json().data.admin_required).toBe(true);
    await enrol(other);
    expect((await callApi(t.app, 'GET', '/admin/system/settings', { token: other.token })).json().code).toBe(0);
    const off = await callApi(t.app, 'PUT', '/admin/system/settings', {
      token: oper.token,
      body: { admin_totp_required: false },
    });
    expect(off.json().data.admin_totp_required).toBe(false);
  });
});

describe('two-factor step limits (RATE_LIMIT_AUTH_MAX 3)', () => {
  const clock = createFakeClock(new Date('2026-03-01T10:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer, config: { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_WINDOW_S: '600' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const passwordLogin = (email: string) =>
    postForm(t.app, '/user/login', { email, password: 'correct horse' }, { ip: '10.9.9.9' });

  it('wrong codes are rate-limited like sign-in failures', async () => {
    const user = await createUser(t.app, mailer, 'limited');
    const setup = await callApi(t.app, 'POST', '/user/totp/setup', { token: user.token });
    const { secret } = setup.json().data as { secret: string };
    expect(
      (
        await callApi(t.app, 'POST', '/user/totp/enable', { token: user.token, body: { code: await codeAt(secret) } })
      ).json().code,
    ).toBe(0);
    const challenge = (await passwordLogin(user.email)).json().data.challenge as string;
    const current = await codeAt(secret);
    const wrong = current === '000000' ? '111111' : '000000';
    let limited = false;
    for (let i = 0; i < 5 && !limited; i += 1) {
      const res = await postForm(t.app, '/user/login/totp', { challenge, code: wrong }, { ip: '10.9.9.9' });
      limited = res.json().data?.error === 'RATE_LIMITED';
      if (limited) expect(res.headers['retry-after']).toBeDefined();
    }
    expect(limited).toBe(true);
  });
});
