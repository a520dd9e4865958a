import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDb } from '@proxy/db';
import { buildApp } from '../../app';
import {
  createMemoryMailer,
  createTestApp,
  createTestConfig,
  createTestDatabase,
  itOnPostgres,
} from '../../../test/helpers';
import { RATE_LIMIT_TABLE } from '../../lib/rate-limiter';
import { callApi, postForm } from './auth-test-kit';
import { createAccount } from './auth.service';
import { hashPassword } from './password';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

const LIMITED = { code: 429, msg: 'Too many attempts, please try again later', data: { error: 'RATE_LIMITED' } };

/** An account with a password (made directly: no code, no registration attempt counted). */
async function createPasswordAccount(t: TTestApp, name: string, password: string): Promise<void> {
  await createAccount(t.deps, {
    email: `${name}@example.com`,
    username: name,
    passwordHash: await hashPassword(password, { memoryKib: 1024, timeCost: 1 }),
  });
}

function login(t: TTestApp, email: string, password: string, ip: string) {
  return postForm(t.app, '/user/login', { email, password }, { ip, lang: 'en' });
}

/** Asserts a 429 with the envelope and a Retry-After in seconds within the window. */
function expectLimited(res: Awaited<ReturnType<typeof login>>, windowS: number): number {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual(LIMITED);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
  return retryAfter;
}

describe('sign-in limits (RATE_LIMIT_AUTH_MAX 3)', () => {
  let t: TTestApp;
  const mailer = createMemoryMailer();
  beforeAll(async () => {
    t = await createTestApp({ mailer, config: { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_WINDOW_S: '600' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every limited call answers 429 with the envelope and Retry-After in seconds', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, 'nobody@example.com', 'guess-guess', '10.10.0.1')).json().code).toBe(1001);
    // Longer than the default 60 s window: the setting is the one in force.
    expect(expectLimited(await login(t, 'nobody@example.com', 'guess-guess', '10.10.0.1'), 600)).toBeGreaterThan(60);

    for (let i = 0; i < 3; i += 1)
      await postForm(t.app, '/user/code', { email: `c${i}@example.com`, type: 'register' }, { ip: '10.10.0.2' });
    expectLimited(
      await postForm(
        t.app,
        '/user/code',
        { email: 'c9@example.com', type: 'register' },
        { ip: '10.10.0.2', lang: 'en' },
      ),
      600,
    );

    const reg = {
      username: 'someone',
      email: 'r@example.com',
      password: 'password-123',
      confirm_password: 'password-123',
      code: '123456',
    };
    for (let i = 0; i < 3; i += 1) await postForm(t.app, '/user/register', reg, { ip: '10.10.0.3' });
    expectLimited(await postForm(t.app, '/user/register', reg, { ip: '10.10.0.3', lang: 'en' }), 600);

    const reset = {
      email: 'r@example.com',
      code: '123456',
      password: 'password-123',
      confirm_password: 'password-123',
    };
    for (let i = 0; i < 3; i += 1) await postForm(t.app, '/user/reset_password', reset, { ip: '10.10.0.4' });
    expectLimited(await postForm(t.app, '/user/reset_password', reset, { ip: '10.10.0.4', lang: 'en' }), 600);

    await createPasswordAccount(t, 'changer', 'changer-password');
    const token = (await login(t, 'changer', 'changer-password', '10.10.0.5')).json().data.token as string;
    const body = {
      current_password: 'not-the-password',
      password: 'new-password-1',
      confirm_password: 'new-password-1',
    };
    for (let i = 0; i < 3; i += 1)
      expect((await callApi(t.app, 'POST', '/user/change_password', { token, body })).json().code).toBe(1008);
    expectLimited(await callApi(t.app, 'POST', '/user/change_password', { token, body, lang: 'en' }), 600);
  });

  it('counts an account once whether it is named by e-mail or by username, in any case', async () => {
    await createPasswordAccount(t, 'kim', 'kim-password');
    const names = ['kim@example.com', 'KIM', 'Kim@Example.com'];
    for (const [i, name] of names.entries())
      expect((await login(t, name, 'guess-guess', `10.11.0.${i + 1}`)).json().code).toBe(1001);
    // From fresh addresses, by either name, even with the right password: a proof of work first.
    expect((await login(t, 'kim', 'guess-guess', '10.11.0.9')).json().data.proof_required).toBe(true);
    expect((await login(t, 'kim@example.com', 'kim-password', '10.11.0.10')).json().data.proof_required).toBe(true);
  });

  it("failures from other addresses never refuse the owner's right password: a known address signs in, a new one brings a proof", async () => {
    await createPasswordAccount(t, 'owner', 'owner-password');
    expect((await login(t, 'owner', 'owner-password', '10.12.0.1')).json().code).toBe(0);
    const answers: (number | string)[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await login(t, i % 2 ? 'owner' : 'owner@example.com', 'guess-guess', `10.66.0.${i + 1}`);
      answers.push(res.json().data?.proof_required ? 'proof' : res.json().code);
    }
    expect(answers).toEqual([1001, 1001, 1001, 'proof', 'proof', 'proof']);
    expect((await login(t, 'owner@example.com', 'owner-password', '10.12.0.1')).json().code).toBe(0);
    const fresh = await login(t, 'owner', 'owner-password', '10.12.0.2');
    expect([fresh.statusCode, fresh.json().data.proof_required]).toEqual([200, true]);
  });

  it('failures at a known address are still limited per account and address', async () => {
    await createPasswordAccount(t, 'typo', 'typo-password');
    expect((await login(t, 'typo', 'typo-password', '10.13.0.1')).json().code).toBe(0);
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, 'typo', 'wrong-password', '10.13.0.1')).json().code).toBe(1001);
    expectLimited(await login(t, 'typo', 'typo-password', '10.13.0.1'), 600);
  });

  it('successful sign-ins do not use up the allowance', async () => {
    await createPasswordAccount(t, 'often', 'often-password');
    for (let i = 0; i < 5; i += 1) expect((await login(t, 'often', 'often-password', '10.14.0.1')).json().code).toBe(0);
    for (let i = 0; i < 3; i += 1)
      expect((await login(t, 'often', 'wrong-password', '10.14.0.1')).json().code).toBe(1001);
    expect((await login(t, 'often', 'often-password', '10.14.0.1')).statusCode).toBe(429);
  });

  it('parallel guesses cannot slip past the budget', async () => {
    await createPasswordAccount(t, 'burst', 'burst-password');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => login(t, 'burst', 'guess-guess', `10.15.0.${i + 1}`)),
    );
    const answers = results.map((r) => (r.json().data?.proof_required ? 'proof' : r.json().code)).sort();
    expect(answers).toEqual([1001, 1001, 1001, 'proof', 'proof', 'proof', 'proof', 'proof']);
  });
});

describe('the limit window (RATE_LIMIT_AUTH_WINDOW_S)', () => {
  it('a limited key is free again once its window has passed, not before', async () => {
    // The account's budget (its own window) passes with it, so only the per-address limit is seen here.
    const t = await createTestApp({
      config: { RATE_LIMIT_AUTH_MAX: '2', RATE_LIMIT_AUTH_WINDOW_S: '120', SIGN_IN_ACCOUNT_WINDOW_S: '120' },
    });
    // The limiter library reads Date.now(): only Date is faked, timers and I/O stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      for (let i = 0; i < 2; i += 1)
        expect((await login(t, 'window@example.com', 'guess-guess', '10.16.0.1')).json().code).toBe(1001);
      expect(expectLimited(await login(t, 'window@example.com', 'guess-guess', '10.16.0.1'), 120)).toBe(120);
      vi.setSystemTime(start + 119_000);
      expect(expectLimited(await login(t, 'window@example.com', 'guess-guess', '10.16.0.1'), 120)).toBe(1);
      vi.setSystemTime(start + 120_001);
      expect((await login(t, 'window@example.com', 'guess-guess', '10.16.0.1')).json().code).toBe(1001);
    } finally {
      vi.useRealTimers();
      await t.close();
    }
  });
});

describe('several API instances on one PostgreSQL database', () => {
  itOnPostgres('after one instance answers 429 the other refuses too', async () => {
    const database = await createTestDatabase();
    const second = await openDb({ url: database.url, poolSize: 5 });
    const settings = { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_WINDOW_S: '600' };
    const one = await buildApp({
      config: createTestConfig(settings),
      database,
      mailer: createMemoryMailer(),
      logger: false,
    });
    const two = await buildApp({
      config: createTestConfig(settings),
      database: second,
      mailer: createMemoryMailer(),
      logger: false,
    });
    const asTest = (app: typeof one) => ({ app: app.app, deps: app.deps }) as unknown as TTestApp;
    try {
      const a = asTest(one);
      const b = asTest(two);
      await createPasswordAccount(a, 'shared', 'shared-password');
      // Failures spread over both instances add up.
      expect((await login(a, 'shared', 'guess-guess', '10.17.0.1')).json().code).toBe(1001);
      expect((await login(b, 'shared', 'guess-guess', '10.17.0.2')).json().code).toBe(1001);
      expect((await login(a, 'shared', 'guess-guess', '10.17.0.3')).json().code).toBe(1001);
      // Past the account's budget, on either instance: a proof of work (never a refusal of the right password).
      expect((await login(a, 'shared', 'guess-guess', '10.17.0.4')).json().data.proof_required).toBe(true);
      expect((await login(b, 'shared@example.com', 'shared-password', '10.17.0.5')).json().data.proof_required).toBe(
        true,
      );
      // Per address, failures on both instances add up.
      for (let i = 0; i < 2; i += 1) await login(i % 2 ? b : a, `other${i}`, 'guess-guess', '10.17.0.1');
      expectLimited(await login(b, 'other9', 'guess-guess', '10.17.0.1'), 600);
      // Attempt counts (codes) are shared as well.
      for (let i = 0; i < 3; i += 1)
        await postForm(
          (i % 2 ? b : a).app,
          '/user/code',
          { email: `s${i}@example.com`, type: 'register' },
          { ip: '10.17.1.1' },
        );
      expectLimited(
        await postForm(
          b.app,
          '/user/code',
          { email: 's9@example.com', type: 'register' },
          { ip: '10.17.1.1', lang: 'en' },
        ),
        600,
      );
      const rows = await one.deps.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${RATE_LIMIT_TABLE}`));
      expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBeGreaterThan(0);
    } finally {
      await one.app.close();
      await two.app.close();
      await second.close();
      await database.close();
    }
  });
});
