import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingZeroBits, proofInput } from '@proxy/contract';
import { openDb } from '@proxy/db';
import { buildApp } from '../../app';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  createTestConfig,
  createTestDatabase,
  itOnPostgres,
  type TMemoryMailer,
} from '../../../test/helpers';
import { postForm } from './auth-test-kit';
import { createAccount } from './auth.service';
import { hashPassword } from './password';

type TTestApp = Awaited<ReturnType<typeof createTestApp>>;
type TApp = Pick<TTestApp, 'app' | 'deps'>;

// A budget of 10 failures per account and hour; past it, proofs of 6 zero bits (one more per doubling).
const SETTINGS = {
  RATE_LIMIT_AUTH_MAX: '10',
  RATE_LIMIT_AUTH_WINDOW_S: '600',
  SIGN_IN_ACCOUNT_WINDOW_S: '3600',
  SIGN_IN_PROOF_BITS: '6',
};

type TProofAnswer = { proof_required: true; challenge: string; bits: number; expires_in: number };

async function createPasswordAccount(t: TApp, name: string, password = `${name}-password`): Promise<void> {
  await createAccount(t.deps, {
    email: `${name}@example.com`,
    username: name,
    passwordHash: await hashPassword(password, { memoryKib: 1024, timeCost: 1 }),
  });
}

function login(t: TApp, fields: Record<string, string>, ip: string, lang = 'en') {
  return postForm(t.app, '/user/login', fields, { ip, lang });
}

/** The nonce a browser would find for a challenge (the same rule as the console's solver). */
function solve(challenge: string, bits: number): string {
  for (let nonce = 0; ; nonce += 1) {
    const digest = createHash('sha256')
      .update(proofInput(challenge, String(nonce)))
      .digest();
    if (leadingZeroBits(digest) >= bits) return String(nonce);
  }
}

/** A nonce that does not prove the work. */
function unsolve(challenge: string, bits: number): string {
  for (let nonce = 0; ; nonce += 1) {
    const digest = createHash('sha256')
      .update(proofInput(challenge, String(nonce)))
      .digest();
    if (leadingZeroBits(digest) < bits) return String(nonce);
  }
}

function proofOf(res: Awaited<ReturnType<typeof login>>): TProofAnswer {
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as TProofAnswer;
  expect(data.proof_required).toBe(true);
  return data;
}

/** Signs in the way the console does: asked for a proof, it brings one. */
async function loginWithProof(t: TApp, fields: Record<string, string>, ip: string) {
  let res = await login(t, fields, ip);
  for (let round = 0; round < 3 && res.json().data?.proof_required; round += 1) {
    const { challenge, bits } = res.json().data as TProofAnswer;
    res = await login(t, { ...fields, proof: challenge, nonce: solve(challenge, bits) }, ip);
  }
  return res;
}

/** Ten wrong passwords from ten addresses (the budget). */
async function guessTenTimes(attacker: TApp, name: string, net = 90) {
  for (let i = 0; i < 10; i += 1) {
    const res = await login(attacker, { email: name, password: `guess-${i}` }, `10.${net}.${i}.1`);
    expect(res.json().code).toBe(1001);
  }
}

const alertsTo = (mailer: TMemoryMailer, to: string) =>
  mailer.sent.filter((m) => m.to === to && m.subject.includes('Failed sign-ins'));

describe('sign-in throttling per account', () => {
  let t: TTestApp;
  const clock = createFakeClock(new Date('2026-06-01T00:00:00Z'));
  const mailer: TMemoryMailer = createMemoryMailer();
  beforeAll(async () => {
    t = await createTestApp({ mailer, clock, config: SETTINGS });
  });
  afterAll(async () => {
    await t.close();
  });

  it("others' failures never answer 429 to the owner's right password from a new address: a proof of work, then the session", async () => {
    await createPasswordAccount(t, 'victim');
    await guessTenTimes(t, 'victim');
    const first = await login(t, { email: 'victim@example.com', password: 'victim-password' }, '10.91.0.1');
    expect(first.statusCode).not.toBe(429);
    const asked = proofOf(first);
    expect(asked.bits).toBe(6);
    const res = await login(
      t,
      {
        email: 'victim@example.com',
        password: 'victim-password',
        proof: asked.challenge,
        nonce: solve(asked.challenge, asked.bits),
      },
      '10.91.0.1',
    );
    expect(res.json().code, res.body).toBe(0);
    expect(typeof res.json().data.token).toBe('string');
  });

  it('past the budget the answer without a proof is the same for the right and a wrong password (nothing is checked)', async () => {
    await createPasswordAccount(t, 'blind');
    await guessTenTimes(t, 'blind');
    const right = proofOf(await login(t, { email: 'blind', password: 'blind-password' }, '10.92.0.1'));
    const wrong = proofOf(await login(t, { email: 'blind', password: 'not-it' }, '10.92.0.2'));
    expect({ ...right, challenge: '' }).toEqual({ ...wrong, challenge: '' });
    // An unknown name behaves the same: the answers tell nothing about which accounts exist.
    await guessTenTimes(t, 'nobody-here');
    const unknown = proofOf(await login(t, { email: 'nobody-here', password: 'x' }, '10.92.0.3'));
    expect({ ...unknown, challenge: '' }).toEqual({ ...wrong, challenge: '' });
  });

  it('each guess past the budget costs its own proof: a spent, forged, foreign or short proof is asked again', async () => {
    await createPasswordAccount(t, 'target');
    await createPasswordAccount(t, 'other');
    await guessTenTimes(t, 'target');
    await guessTenTimes(t, 'other', 93);
    const asked = proofOf(await login(t, { email: 'target', password: 'guess-a' }, '10.94.0.1'));
    const nonce = solve(asked.challenge, asked.bits);
    const proved = await login(t, { email: 'target', password: 'guess-a', proof: asked.challenge, nonce }, '10.94.0.2');
    expect(proved.json().code).toBe(1001);
    // The same proof again, even with the right password: spent.
    proofOf(
      await login(t, { email: 'target', password: 'target-password', proof: asked.challenge, nonce }, '10.94.0.3'),
    );
    const fresh = proofOf(await login(t, { email: 'target', password: 'guess-b' }, '10.94.0.4'));
    const bad = unsolve(fresh.challenge, fresh.bits);
    proofOf(await login(t, { email: 'target', password: 'guess-b', proof: fresh.challenge, nonce: bad }, '10.94.0.5'));
    // Another account's challenge, solved, proves nothing here.
    const foreign = proofOf(await login(t, { email: 'other', password: 'guess-c' }, '10.94.0.6'));
    const foreignNonce = solve(foreign.challenge, foreign.bits);
    proofOf(
      await login(
        t,
        { email: 'target', password: 'guess-c', proof: foreign.challenge, nonce: foreignNonce },
        '10.94.0.7',
      ),
    );
    // A challenge edited to ask less work fails its signature.
    const [id, expires, , mac] = fresh.challenge.split('.');
    const cheap = `${id}.${expires}.1.${mac}`;
    proofOf(
      await login(t, { email: 'target', password: 'guess-d', proof: cheap, nonce: solve(cheap, 1) }, '10.94.0.8'),
    );
    // An expired challenge is asked again.
    const late = proofOf(await login(t, { email: 'target', password: 'guess-e' }, '10.94.0.9'));
    clock.advance(301_000);
    proofOf(
      await login(
        t,
        { email: 'target', password: 'guess-e', proof: late.challenge, nonce: solve(late.challenge, late.bits) },
        '10.94.0.10',
      ),
    );
  });

  it('the work doubles as the failures double; the window passes and the budget is whole again', async () => {
    await createPasswordAccount(t, 'doubling');
    await guessTenTimes(t, 'doubling');
    for (let i = 0; i < 10; i += 1) {
      const res = await loginWithProof(t, { email: 'doubling', password: `more-${i}` }, `10.95.${i}.1`);
      expect(res.json().code).toBe(1001);
    }
    expect(proofOf(await login(t, { email: 'doubling', password: 'x' }, '10.95.99.1')).bits).toBe(7);
    clock.advance(3_600_000);
    expect((await login(t, { email: 'doubling', password: 'x' }, '10.95.99.2')).json().code).toBe(1001);
  });

  it('an address the owner signed in from before brings no proof', async () => {
    await createPasswordAccount(t, 'homebody');
    expect((await login(t, { email: 'homebody', password: 'homebody-password' }, '10.96.0.1')).json().code).toBe(0);
    await guessTenTimes(t, 'homebody');
    const res = await login(t, { email: 'homebody', password: 'homebody-password' }, '10.96.0.1');
    expect(res.json().code).toBe(0);
    expect(typeof res.json().data.token).toBe('string');
  });

  it('per-address limits stay: the eleventh failure from one address answers 429', async () => {
    await createPasswordAccount(t, 'single');
    for (let i = 0; i < 10; i += 1)
      expect((await loginWithProof(t, { email: 'single', password: `g${i}` }, '10.97.0.1')).json().code).toBe(1001);
    const res = await login(t, { email: 'single', password: 'g10' }, '10.97.0.1');
    expect([res.statusCode, res.json().data.error]).toEqual([429, 'RATE_LIMITED']);
  });

  it('one alert e-mail per burst of failures, in both languages; a later burst alerts again', async () => {
    await createPasswordAccount(t, 'alerted');
    for (let i = 0; i < 9; i += 1) await login(t, { email: 'alerted', password: `g${i}` }, `10.98.${i}.1`);
    expect(alertsTo(mailer, 'alerted@example.com')).toHaveLength(0);
    await login(t, { email: 'alerted', password: 'g9' }, '10.98.9.1');
    for (let i = 10; i < 15; i += 1) await loginWithProof(t, { email: 'alerted', password: `g${i}` }, `10.98.${i}.1`);
    const alerts = alertsTo(mailer, 'alerted@example.com');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('10 次');
    expect(alerts[0].text).toContain('10 attempts');
    expect(alerts[0].text).toContain('E-mail me a sign-in link');
    clock.advance(3_600_000);
    for (let i = 0; i < 10; i += 1) await login(t, { email: 'alerted', password: `h${i}` }, `10.98.${i + 20}.1`);
    expect(alertsTo(mailer, 'alerted@example.com')).toHaveLength(2);
  });
});

describe('the e-mailed sign-in link', () => {
  let t: TTestApp;
  const clock = createFakeClock(new Date('2026-06-01T00:00:00Z'));
  const mailer: TMemoryMailer = createMemoryMailer();
  beforeAll(async () => {
    t = await createTestApp({ mailer, clock, config: { ...SETTINGS, RATE_LIMIT_AUTH_MAX: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const askLink = (email: string, ip: string, lang = 'en') =>
    postForm(t.app, '/user/login/link', { email }, { ip, lang });
  const finish = (token: string, ip: string, lang = 'en') =>
    postForm(t.app, '/user/login/link/finish', { token }, { ip, lang });
  const tokenIn = (to: string) => {
    const mail = mailer.last(to);
    const match = mail ? /\/login\/link#([A-Za-z0-9_-]+)/.exec(mail.text) : null;
    if (!match) throw new Error(`no sign-in link sent to ${to}`);
    return match[1];
  };

  it('signs the owner in once, past every throttle of their address and account', async () => {
    await createPasswordAccount(t, 'linked');
    // The owner's address is over its limit (a shared address, someone guessing) and the account is past its budget.
    for (let i = 0; i < 3; i += 1) await login(t, { email: 'linked', password: `g${i}` }, '10.80.0.1');
    expect((await login(t, { email: 'linked', password: 'linked-password' }, '10.80.0.1')).statusCode).toBe(429);
    const asked = await askLink('linked@example.com', '10.80.0.1', 'zh');
    expect([asked.json().code, asked.json().data]).toEqual([0, null]);
    const mail = mailer.last('linked@example.com')!;
    expect(mail.subject).toContain('登录链接');
    const token = tokenIn('linked@example.com');
    const res = await finish(token, '10.80.0.1');
    expect(res.json().code, res.body).toBe(0);
    expect(typeof res.json().data.token).toBe('string');
    for (const lang of ['en', 'zh'] as const) {
      const again = await finish(token, '10.80.0.2', lang);
      expect([again.statusCode, again.json().code]).toEqual([400, 1061]);
      expect(again.json().msg).toBe(
        lang === 'en'
          ? 'This sign-in link is wrong, used or expired; ask for a new one'
          : '登录链接无效、已使用或已过期，请重新获取',
      );
    }
  });

  it('answers the same for an unknown account and sends nothing; an account gets at most one link a minute, earlier links stay good', async () => {
    const before = mailer.sent.length;
    const ghost = (await askLink('ghost@example.com', '10.81.0.1')).json();
    expect([ghost.code, ghost.data]).toEqual([0, null]);
    expect(mailer.sent.length).toBe(before);
    await createPasswordAccount(t, 'flooded');
    await askLink('flooded', '10.81.0.2');
    const first = tokenIn('flooded@example.com');
    for (let i = 0; i < 2; i += 1) await askLink('flooded@example.com', `10.81.1.${i}`);
    expect(mailer.sent.filter((m) => m.to === 'flooded@example.com')).toHaveLength(1);
    clock.advance(60_000);
    await askLink('flooded@example.com', '10.81.2.1');
    expect(mailer.sent.filter((m) => m.to === 'flooded@example.com')).toHaveLength(2);
    expect((await finish(first, '10.81.3.1')).json().code).toBe(0);
  });

  it('expires after 15 minutes', async () => {
    await createPasswordAccount(t, 'slow');
    await askLink('slow', '10.82.0.1');
    const token = tokenIn('slow@example.com');
    clock.advance(15 * 60_000 + 1);
    expect((await finish(token, '10.82.0.1')).json().code).toBe(1061);
  });
});

describe('an attacker and the owner on two API instances on one PostgreSQL database', () => {
  itOnPostgres(
    "the owner's right password from a new address gets in on the other instance, and parallel guesses cannot pass the budget",
    async () => {
      const database = await createTestDatabase();
      const second = await openDb({ url: database.url, poolSize: 5 });
      const mailer = createMemoryMailer();
      const one = await buildApp({ config: createTestConfig(SETTINGS), database, mailer, logger: false });
      const two = await buildApp({ config: createTestConfig(SETTINGS), database: second, mailer, logger: false });
      try {
        await createPasswordAccount(one, 'shared');
        await guessTenTimes(one, 'shared');
        const first = await login(two, { email: 'shared@example.com', password: 'shared-password' }, '10.70.0.1');
        expect(first.statusCode).not.toBe(429);
        const res = await loginWithProof(
          two,
          { email: 'shared@example.com', password: 'shared-password' },
          '10.70.0.1',
        );
        expect(res.json().code, res.body).toBe(0);
        expect(typeof res.json().data.token).toBe('string');
        expect(alertsTo(mailer, 'shared@example.com')).toHaveLength(1);

        // 40 guesses at once, spread over both instances, on a fresh account: the budget checks 10 passwords, no more.
        await createPasswordAccount(one, 'burst');
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            login(i % 2 ? one : two, { email: 'burst', password: `guess-${i}` }, `10.71.${i}.1`),
          ),
        );
        const checked = answers.filter((r) => r.json().code === 1001).length;
        const asked = answers.filter((r) => r.json().data?.proof_required === true).length;
        expect([checked, asked]).toEqual([10, 30]);
        // Concurrent owners' sign-ins through the asked work all get in.
        const owner = await Promise.all(
          [one, two].map((app, i) =>
            loginWithProof(app, { email: 'burst', password: 'burst-password' }, `10.72.${i}.1`),
          ),
        );
        expect(owner.map((r) => r.json().code)).toEqual([0, 0]);
        expect(alertsTo(mailer, 'burst@example.com')).toHaveLength(1);
      } finally {
        await one.app.close();
        await two.app.close();
        await second.close();
        await database.close();
      }
    },
  );
});
