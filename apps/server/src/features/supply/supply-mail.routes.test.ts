import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, createTestApp, type TMemoryMailer, type TTestApp } from '../../../test/helpers';
import { createLedgerService } from '../ledger/ledger.service';
import { createUser, creditFen, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';

const body = {
  type: 'traffic',
  product: 'dynamic',
  network: 'HTTP',
  amount: 2,
  region: 'us',
  wait_days: 7,
  remark: '',
  contact_email: 'victim@example.org',
  agree_terms: true,
};

describe('supply request mail', () => {
  let mailer: TMemoryMailer;
  let t: TTestApp;
  let eve: TTestUser;
  let dan: TTestUser;

  const mailsTo = (to: string) => mailer.sent.filter((m) => m.to === to);
  const submit = (user: TTestUser, contact: string, lang = 'en') =>
    request(t.app, 'POST', '/token/supply', { token: user.token, body: { ...body, contact_email: contact }, lang });
  const revoke = (user: TTestUser, id: number) =>
    request(t.app, 'POST', `/token/supply/revoke/${id}`, { token: user.token });

  beforeAll(async () => {
    mailer = createMemoryMailer();
    t = await createTestApp({
      mailer,
      config: { DIRECT_EXIT_COUNTRY: 'us', SUPPLY_SUBMIT_MAX: '5', SUPPLY_SUBMIT_WINDOW_S: '3600' },
    });
    await seedProxyStartup(t.deps);
    eve = await createUser(t.app, mailer, 'eve');
    dan = await createUser(t.app, mailer, 'dan');
    await creditFen(t.deps, eve.userId, 100_000);
    await creditFen(t.deps, dan.userId, 100_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ten submit-and-revoke rounds naming a stranger send the stranger at most one e-mail', async () => {
    for (let i = 0; i < 10; i += 1) {
      const created = await request(t.app, 'POST', '/token/supply', { token: eve.token, body });
      if (created.json().code !== 0) break;
      await request(t.app, 'POST', `/token/supply/revoke/${created.json().data.request_id}`, { token: eve.token });
    }
    expect(mailer.sent.filter((m) => m.to === 'victim@example.org').length).toBeLessThanOrEqual(1);
  });

  it("the stranger got only the confirmation request; the transitions went to the account's own address, once per request and state", () => {
    const toVictim = mailsTo('victim@example.org');
    expect(toVictim).toHaveLength(1);
    expect(toVictim[0].subject).toContain('Confirm a supply request contact address');
    const own = mailsTo(eve.email).map((m) => m.subject);
    const transitions = own.filter((s) => s.includes('Supply request #'));
    expect(transitions).toHaveLength(10);
    expect(new Set(transitions).size).toBe(transitions.length);
  });

  it('a sixth submission in the window is refused in both languages with Retry-After, and freezes nothing', async () => {
    const before = await createLedgerService(t.deps).getBalance(eve.userId);
    for (const lang of ['en', 'zh'] as const) {
      const res = await submit(eve, eve.email, lang);
      expect([res.statusCode, res.json().data.error]).toEqual([429, 'RATE_LIMITED']);
      expect(res.json().msg).toBe(
        lang === 'en' ? 'Too many attempts, please try again later' : '操作过于频繁，请稍后再试',
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await createLedgerService(t.deps).getBalance(eve.userId)).toEqual(before);
    // The limit is per account: another customer submits.
    const other = await submit(dan, dan.email);
    expect(other.json().code, other.body).toBe(0);
    await revoke(dan, other.json().data.request_id);
  });

  it('a confirmed contact address gets the e-mails from then on; a wrong link is refused in both languages', async () => {
    const created = await submit(dan, 'ops@partner.example');
    expect(created.json().code).toBe(0);
    expect(mailsTo('ops@partner.example')).toHaveLength(1);
    const link = /\/supply\/contact\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mailsTo('ops@partner.example')[0].text);
    expect(link).not.toBeNull();
    for (const lang of ['en', 'zh'] as const) {
      const bad = await request(t.app, 'POST', '/token/supply/contact/confirm', {
        body: { token: 'not-a-token' },
        lang,
      });
      expect([bad.statusCode, bad.json().code]).toEqual([400, 6111]);
      expect(bad.json().msg).toBe(
        lang === 'en'
          ? 'This contact address confirmation link is wrong or has expired'
          : '联系邮箱确认链接无效或已过期',
      );
    }
    const confirmed = await request(t.app, 'POST', '/token/supply/contact/confirm', { body: { token: link![1] } });
    expect(confirmed.json()).toMatchObject({ code: 0, data: { email: 'ops@partner.example' } });
    await revoke(dan, created.json().data.request_id);
    const toContact = mailsTo('ops@partner.example').map((m) => m.subject);
    expect(toContact).toHaveLength(2);
    expect(toContact[1]).toContain(`Supply request #${created.json().data.request_id} revoked`);
  });
});
