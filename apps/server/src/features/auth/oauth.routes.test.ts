import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthAccounts, oauthStates, userSessions, users } from '@proxy/db';
import { createFakeClock, createTestApp } from '../../../test/helpers';
import { startLocalOAuthProviders, type TLocalOAuthProviders } from '../../../test/oauth-providers';
import { isAppError } from '../../lib/app-error';
import { createAccount } from './auth.service';
import { finishOAuthSignIn } from './oauth.service';
import { hashPassword } from './password';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;
type TProvider = 'github' | 'google';

const CALLBACK = 'http://127.0.0.1:8080/login/oauth-callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' };

/** Calls of one test app. */
function createClient(t: TTestApp) {
  const authorize = async (provider: TProvider, redirectUri = CALLBACK) =>
    t.app.inject({
      method: 'GET',
      url: `/api/user/oauth/${provider}/authorize?redirect_uri=${encodeURIComponent(redirectUri)}`,
      headers: { lang: 'en' },
    });
  /** What the browser does: open the authorization URL and read where the provider sends it back. */
  const followProvider = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    return { location, code: location.searchParams.get('code')!, state: location.searchParams.get('state')! };
  };
  const verify = async (provider: TProvider, form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/user/${provider}/verify`,
      headers: FORM,
      payload: new URLSearchParams(form).toString(),
    });
  const signIn = async (provider: TProvider, extra: Record<string, string> = {}) => {
    const started = await authorize(provider);
    expect(started.json().code).toBe(0);
    const { code, state } = await followProvider(started.json().data.url);
    return verify(provider, { code, state, ...extra });
  };
  const userInfo = async (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: `Bearer ${token}`, lang: 'en' } });
  const countUsers = async (email?: string) =>
    (await (email ? t.deps.db.select().from(users).where(eq(users.email, email)) : t.deps.db.select().from(users)))
      .length;
  return { authorize, followProvider, verify, signIn, userInfo, countUsers };
}

describe('GitHub and Google sign-in', () => {
  let providers: TLocalOAuthProviders;
  let t: TTestApp;
  let c: ReturnType<typeof createClient>;
  const clock = createFakeClock(new Date());

  beforeAll(async () => {
    providers = await startLocalOAuthProviders();
    t = await createTestApp({ clock, config: { ...providers.env, CORS_ORIGINS: 'http://localhost:5173' } });
    c = createClient(t);
  });
  afterAll(async () => {
    await t?.close();
    await providers?.close();
  });

  it('offers both providers when their credentials are configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/oauth/providers' });
    expect(res.json()).toEqual({ code: 0, msg: 'OK', data: { github: true, google: true, invite_required: false } });
  });

  it('starts with a provider URL carrying a stored state and an S256 PKCE challenge', async () => {
    const res = await c.authorize('github');
    expect(res.statusCode).toBe(200);
    const { url, state } = res.json().data as { url: string; state: string };
    const target = new URL(url);
    expect(target.origin + target.pathname).toBe(providers.env.OAUTH_GITHUB_AUTHORIZE_URL);
    expect(target.searchParams.get('state')).toBe(state);
    expect(target.searchParams.get('client_id')).toBe(providers.env.GITHUB_CLIENT_ID);
    expect(target.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(state.length).toBeGreaterThanOrEqual(32);

    const [row] = await t.deps.db.select().from(oauthStates).where(eq(oauthStates.state, state));
    expect(row.provider).toBe('github');
    expect(row.redirectUri).toBe(CALLBACK);
    expect(row.expiresAt.getTime()).toBe(clock.now().getTime() + 10 * 60 * 1000);
    // The challenge is the verifier's SHA-256; the verifier itself never leaves the server.
    expect(target.searchParams.get('code_challenge')).toBe(
      createHash('sha256').update(row.codeVerifier).digest('base64url'),
    );
    expect(url).not.toContain(row.codeVerifier);

    const second = (await c.authorize('github')).json().data.state;
    expect(second).not.toBe(state);
  });

  it('accepts a redirect_uri on an allowed console origin and refuses a foreign one', async () => {
    expect((await c.authorize('google', 'http://localhost:5173/login')).json().code).toBe(0);
    const before = (await t.deps.db.select().from(oauthStates)).length;
    for (const uri of ['https://evil.example/login', 'http://127.0.0.1:8081/login', 'javascript:alert(1)']) {
      const res = await c.authorize('github', uri);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.error).toBe('BAD_REQUEST');
    }
    expect((await t.deps.db.select().from(oauthStates)).length).toBe(before);
  });

  it('signs a new GitHub user up with the primary verified e-mail and a working session with the trial credit', async () => {
    providers.setGithubUser({ id: 501, login: 'newbie', email: 'Newbie@Example.com', verified: true });
    const res = await c.signIn('github');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.is_new_user).toBe(true);
    expect(body.data.expires_in).toBe(216000);

    const info = await c.userInfo(body.data.token);
    expect(info.json().code).toBe(0);
    expect(info.json().data).toMatchObject({
      email: 'newbie@example.com',
      balance: 15,
      total_balance: 0,
      status: 'active',
    });
    const [link] = await t.deps.db.select().from(oauthAccounts).where(eq(oauthAccounts.providerUserId, '501'));
    expect(link).toMatchObject({ provider: 'github', userId: info.json().data.user_id, email: 'newbie@example.com' });
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, link.userId));
    expect(user.passwordHash).toBeNull();
    // The sign-in is a session of method "github" whose id is in the token.
    const claims = await t.deps.jwt.verify(body.data.token);
    const [session] = await t.deps.db.select().from(userSessions).where(eq(userSessions.id, claims!.sessionId));
    expect(session).toMatchObject({ userId: user.id, method: 'github', ip: '127.0.0.1', endedAt: null });
  });

  it('signs the same GitHub user in again to the same account, without a second trial credit', async () => {
    providers.setGithubUser({ id: 502, login: 'again', email: 'again@example.com', verified: true });
    const first = (await c.signIn('github')).json().data;
    const second = (await c.signIn('github')).json();
    expect(second.code).toBe(0);
    expect(second.data.is_new_user).toBe(false);
    const a = (await c.userInfo(first.token)).json().data;
    const b = (await c.userInfo(second.data.token)).json().data;
    expect(b.user_id).toBe(a.user_id);
    expect(b.balance).toBe(15);
    expect(await c.countUsers('again@example.com')).toBe(1);
  });

  it('finds a linked identity by provider id even after its e-mail changed at the provider', async () => {
    providers.setGithubUser({ id: 503, login: 'mover', email: 'mover@example.com', verified: true });
    const first = (await c.signIn('github')).json().data;
    providers.setGithubUser({ id: 503, login: 'mover', email: 'mover-new@example.com', verified: true });
    const second = (await c.signIn('github')).json();
    expect(second.data.is_new_user).toBe(false);
    expect((await c.userInfo(second.data.token)).json().data.user_id).toBe(
      (await c.userInfo(first.token)).json().data.user_id,
    );
    expect(await c.countUsers('mover-new@example.com')).toBe(0);
  });

  it('links a sign-in to the existing password account with the same verified e-mail', async () => {
    const existing = await createAccount(t.deps, {
      email: 'owner@example.com',
      passwordHash: await hashPassword('correct horse battery', { memoryKib: 1024, timeCost: 1 }),
    });
    providers.setGoogleUser({ id: 'g-owner', name: 'Owner', email: 'OWNER@example.com', verified: true });
    const res = (await c.signIn('google')).json();
    expect(res.code).toBe(0);
    expect(res.data.is_new_user).toBe(false);
    expect((await c.userInfo(res.data.token)).json().data.user_id).toBe(existing.id);
    const links = await t.deps.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, existing.id));
    expect(links).toEqual([expect.objectContaining({ provider: 'google', providerUserId: 'g-owner' })]);
    // The password still works: linking changes nothing else.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: FORM,
      payload: 'email=owner%40example.com&password=correct+horse+battery',
    });
    expect(login.json().code).toBe(0);
  });

  it('refuses an unverified provider e-mail and neither creates nor links an account', async () => {
    const victim = await createAccount(t.deps, { email: 'victim@example.com', passwordHash: null });
    providers.setGithubUser({ id: 504, login: 'mallory', email: 'victim@example.com', verified: false });
    const github = await c.signIn('github');
    expect(github.statusCode).toBe(400);
    expect(github.json()).toMatchObject({ code: 1012, data: { error: 'OAUTH_EMAIL_UNVERIFIED' } });

    providers.setGoogleUser({ id: 'g-mallory', email: 'victim@example.com', verified: false });
    expect((await c.signIn('google')).json().data.error).toBe('OAUTH_EMAIL_UNVERIFIED');
    providers.setGoogleUser({ id: 'g-stranger', email: 'stranger@example.com', verified: false });
    expect((await c.signIn('google')).json().data.error).toBe('OAUTH_EMAIL_UNVERIFIED');

    expect(await t.deps.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, victim.id))).toEqual([]);
    expect(await c.countUsers('stranger@example.com')).toBe(0);
  });

  it('refuses a wrong state and creates nothing', async () => {
    providers.setGithubUser({ id: 505, login: 'wrongstate', email: 'wrongstate@example.com', verified: true });
    const started = (await c.authorize('github')).json().data;
    const { code } = await c.followProvider(started.url);
    const usersBefore = await c.countUsers();
    const res = await c.verify('github', { code, state: 'not-the-state-we-issued' });
    // A state with a NUL (which the database cannot compare) is refused by the request checks, and by the sign-in rule itself.
    expect((await c.verify('github', { code, state: 'abc\u0000def' })).statusCode).toBe(400);
    const direct = await finishOAuthSignIn(
      t.deps,
      'github',
      { code, state: 'abc\u0000def' },
      { ip: '10.41.0.1', lang: 'en' },
    ).catch((e: unknown) => e);
    expect(isAppError(direct, 'OAUTH_FAILED')).toBe(true);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 1010,
      msg: 'Google or GitHub sign-in failed, please try again',
      data: { error: 'OAUTH_FAILED' },
    });
    expect(await c.countUsers()).toBe(usersBefore);
  });

  it('refuses a state issued for the other provider', async () => {
    providers.setGithubUser({ id: 506, login: 'crossed', email: 'crossed@example.com', verified: true });
    const started = (await c.authorize('github')).json().data;
    const { code, state } = await c.followProvider(started.url);
    expect((await c.verify('google', { code, state })).json().data.error).toBe('OAUTH_FAILED');
    expect(await c.countUsers('crossed@example.com')).toBe(0);
  });

  it('uses a state once: a replayed callback is refused', async () => {
    providers.setGithubUser({ id: 507, login: 'replay', email: 'replay@example.com', verified: true });
    const started = (await c.authorize('github')).json().data;
    const { code, state } = await c.followProvider(started.url);
    expect((await c.verify('github', { code, state })).json().code).toBe(0);
    const replay = await c.verify('github', { code, state });
    expect(replay.json().data.error).toBe('OAUTH_FAILED');
    expect(await t.deps.db.select().from(oauthStates).where(eq(oauthStates.state, state))).toEqual([]);
  });

  it('refuses a state older than 10 minutes', async () => {
    providers.setGithubUser({ id: 508, login: 'slow', email: 'slow@example.com', verified: true });
    const started = (await c.authorize('github')).json().data;
    const { code, state } = await c.followProvider(started.url);
    clock.advance(10 * 60 * 1000 + 1000);
    expect((await c.verify('github', { code, state })).json().data.error).toBe('OAUTH_FAILED');
    expect(await c.countUsers('slow@example.com')).toBe(0);
  });

  it('answers OAUTH_FAILED when the provider refuses the code, without leaking why', async () => {
    const started = (await c.authorize('github')).json().data;
    const { state } = await c.followProvider(started.url);
    const res = await c.verify('github', { code: 'forged-code', state });
    expect(res.json()).toEqual({
      code: 1010,
      msg: 'Google or GitHub sign-in failed, please try again',
      data: { error: 'OAUTH_FAILED' },
    });
  });

  it('requires code and state from GitHub (GitHub has no access-token sign-in)', async () => {
    const token = await providers.issueGoogleAccessToken();
    expect((await c.verify('github', { access_token: token })).json().data.error).toBe('BAD_REQUEST');
    expect((await c.verify('github', { code: 'x' })).json().data.error).toBe('BAD_REQUEST');
  });

  it('signs a new Google user up through the code flow', async () => {
    providers.setGoogleUser({ id: 'g-1', name: 'Gina', email: 'gina.code@example.com', verified: true });
    const res = (await c.signIn('google')).json();
    expect(res.code).toBe(0);
    expect(res.data.is_new_user).toBe(true);
    const info = (await c.userInfo(res.data.token)).json();
    expect(info.data).toMatchObject({ email: 'gina.code@example.com', balance: 15 });
    const again = (await c.signIn('google')).json();
    expect((await c.userInfo(again.data.token)).json().data.user_id).toBe(info.data.user_id);
    const methods = (await t.deps.db.select().from(userSessions).where(eq(userSessions.userId, info.data.user_id))).map(
      (s) => s.method,
    );
    expect(methods).toEqual(['google', 'google']);
  });

  it('signs a Google user in with an access token issued to this console', async () => {
    providers.setGoogleUser({ id: 'g-2', name: 'Tok', email: 'token.user@example.com', verified: true });
    const token = await providers.issueGoogleAccessToken();
    const res = (await c.verify('google', { access_token: token })).json();
    expect(res.code).toBe(0);
    expect(res.data.is_new_user).toBe(true);
    expect((await c.userInfo(res.data.token)).json().data.email).toBe('token.user@example.com');
  });

  it('refuses a Google access token issued to another app, and a forged one', async () => {
    providers.setGoogleUser({ id: 'g-3', email: 'other.app@example.com', verified: true });
    const foreign = await providers.issueGoogleAccessToken('some-other-app.apps.example');
    expect((await c.verify('google', { access_token: foreign })).json().data.error).toBe('OAUTH_FAILED');
    expect((await c.verify('google', { access_token: 'ya29.forged' })).json().data.error).toBe('OAUTH_FAILED');
    expect(await c.countUsers('other.app@example.com')).toBe(0);
  });

  it('refuses a disabled account', async () => {
    providers.setGithubUser({ id: 509, login: 'banned', email: 'banned@example.com', verified: true });
    const first = (await c.signIn('github')).json();
    const userId = (await c.userInfo(first.data.token)).json().data.user_id;
    await t.deps.db.update(users).set({ status: 'disabled' }).where(eq(users.id, userId));
    const res = await c.signIn('github');
    expect(res.statusCode).toBe(403);
    expect(res.json().data.error).toBe('ACCOUNT_DISABLED');
  });

  it('makes one account of two simultaneous first sign-ins of the same person', async () => {
    providers.setGithubUser({ id: 510, login: 'twice', email: 'twice@example.com', verified: true });
    const [a, b] = await Promise.all([c.signIn('github'), c.signIn('github')]);
    expect(a.json().code).toBe(0);
    expect(b.json().code).toBe(0);
    expect([a.json().data.is_new_user, b.json().data.is_new_user].sort()).toEqual([false, true]);
    expect(await c.countUsers('twice@example.com')).toBe(1);
    expect((await c.userInfo(a.json().data.token)).json().data.balance).toBe(15);
  });
});

describe('sign-in options of an installation', () => {
  let providers: TLocalOAuthProviders;
  let t: TTestApp;
  let c: ReturnType<typeof createClient>;

  beforeAll(async () => {
    providers = await startLocalOAuthProviders();
    // GitHub has an id but no secret: it counts as not configured.
    t = await createTestApp({
      config: { ...providers.env, GITHUB_CLIENT_SECRET: '', REGISTRATION_INVITE_REQUIRED: 'true' },
    });
    c = createClient(t);
  });
  afterAll(async () => {
    await t?.close();
    await providers?.close();
  });

  it('hides a provider without credentials and tells whether an invite is required', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/oauth/providers' });
    expect(res.json().data).toEqual({ github: false, google: true, invite_required: true });
    const bare = await createTestApp();
    try {
      const none = await bare.app.inject({ method: 'GET', url: '/api/user/oauth/providers' });
      expect(none.json().data).toEqual({ github: false, google: false, invite_required: false });
      expect((await createClient(bare).authorize('google')).json().data.error).toBe('OAUTH_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });

  it('answers OAUTH_NOT_CONFIGURED for a disabled provider', async () => {
    const res = await c.authorize('github');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 1011, data: { error: 'OAUTH_NOT_CONFIGURED' } });
    expect((await c.verify('github', { code: 'abc', state: 'def' })).json().data.error).toBe('OAUTH_NOT_CONFIGURED');
  });

  it('needs an invite code to create an account when invites are required, not to sign in to one', async () => {
    providers.setGoogleUser({ id: 'g-invitee', email: 'invitee@example.com', verified: true });
    const refused = await c.signIn('google');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data).toMatchObject({ error: 'BAD_REQUEST', issues: [{ path: 'invite_code' }] });
    expect(await c.countUsers('invitee@example.com')).toBe(0);

    expect((await c.signIn('google', { invite_code: 'NOSUCHCODE' })).json().data.error).toBe('INVITE_CODE_INVALID');
    expect(await c.countUsers('invitee@example.com')).toBe(0);

    const inviter = await createAccount(t.deps, { email: 'inviter@example.com', passwordHash: null });
    const accepted = (await c.signIn('google', { invite_code: inviter.inviteCode })).json();
    expect(accepted.code).toBe(0);
    const [invitee] = await t.deps.db.select().from(users).where(eq(users.email, 'invitee@example.com'));
    expect(invitee.invitedBy).toBe(inviter.id);

    providers.setGoogleUser({ id: 'g-inviter', email: 'inviter@example.com', verified: true });
    expect((await c.signIn('google')).json().code).toBe(0);
  });
});

describe('sign-in when the provider cannot be reached', () => {
  it('answers OAUTH_FAILED and creates nothing', async () => {
    const providers = await startLocalOAuthProviders();
    // A port that was just free: nothing listens there.
    const deadPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const t = await createTestApp({
      config: { ...providers.env, OAUTH_GITHUB_TOKEN_URL: `http://127.0.0.1:${deadPort}/login/oauth/access_token` },
    });
    try {
      const c = createClient(t);
      const before = await c.countUsers();
      const res = await c.signIn('github');
      expect(res.json()).toEqual({
        code: 1010,
        msg: 'Google or GitHub sign-in failed, please try again',
        data: { error: 'OAUTH_FAILED' },
      });
      expect(await c.countUsers()).toBe(before);
    } finally {
      await t.close();
      await providers.close();
    }
  });
});

describe('sign-in attempts per address', () => {
  it('are limited like the other sign-in calls', async () => {
    const providers = await startLocalOAuthProviders();
    const t = await createTestApp({ config: { ...providers.env, RATE_LIMIT_AUTH_MAX: '2' } });
    try {
      const c = createClient(t);
      expect((await c.authorize('github')).json().code).toBe(0);
      expect((await c.authorize('google')).json().code).toBe(0);
      const limited = await c.authorize('github');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().data.error).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await c.verify('google', { access_token: 'a' });
      await c.verify('google', { access_token: 'b' });
      expect((await c.verify('google', { access_token: 'c' })).json().data.error).toBe('RATE_LIMITED');
    } finally {
      await t.close();
      await providers.close();
    }
  });
});
