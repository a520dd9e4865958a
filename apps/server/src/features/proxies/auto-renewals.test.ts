import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents, ledgerEntries, notifications, openDb, proxyTokens, renewalNotices } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres, type TTestApp } from '../../../test/helpers';
import { findLedgerViolations } from '../../../test/ledger-invariants';
import { createAutoRenewJob, createExpiryJob } from '../../jobs/token-jobs';
import { createAlertJobs } from '../alerts/alerts.jobs';
import { addTokenUsage } from './proxies.repository';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from './proxies-test-kit';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// The auto-renewal notice with its one-click cancel link, the undo of a
// charged auto-renewal within a day, and the renew preview.
describe('auto-renewal notices, cancel links and undo', () => {
  const clock = createFakeClock(new Date('2026-06-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: TTestApp;

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
  });
  afterAll(async () => {
    await t?.close();
  });

  const ipBody = { network: 'HTTP', country_id: 'us', quantity: 1, auto_renew: true };
  const runAlerts = async () => {
    let total = 0;
    for (const job of createAlertJobs(t.deps)) total += await job.runOnce();
    return total;
  };
  const tokenRow = async (id: number) => (await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, id)))[0]!;
  const noticeEvents = (userId: number) =>
    t.db.db
      .select()
      .from(alertEvents)
      .where(and(eq(alertEvents.userId, userId), eq(alertEvents.kind, 'auto_renew_notice')));
  const linkTokenIn = (text: string) => decodeURIComponent(/\/renewal\/cancel\?token=([^\s"<&]+)/.exec(text)![1]);
  const cancel = (token: string, lang = 'en') =>
    request(t.app, 'POST', '/token/auto-renew/cancel', { body: { token }, lang });
  const cancelInfo = (token: string) =>
    request(t.app, 'GET', `/token/auto-renew/cancel?token=${encodeURIComponent(token)}`);
  const undo = (user: TTestUser, id: number, lang = 'en') =>
    request(t.app, 'POST', `/token/auto-renew/undo/${id}`, { token: user.token, lang });

  // A fresh start for each test: later tests must not meet earlier tests' tokens at their charge time.
  async function freshStart(at: string) {
    clock.set(new Date(at));
    await createExpiryJob(t.deps).runOnce();
    return clock.now().getTime();
  }

  it('sends one notice 24 hours before the charge, with the amount, the time and a cancel link, on the console and by e-mail', async () => {
    const start = await freshStart('2026-06-01T00:00:00Z');
    const ann = await createUser(t.app, mailer, 'ann');
    const id = (await buyOk(t.app, ann.token, '/token/static/ip', { ...ipBody, days: 3 })).tokens[0].token_id;
    const { username, periodPriceFen } = await tokenRow(id);
    expect(periodPriceFen).toBe(600);
    // The job charges an hour before the expiry; the notice goes out 24 hours before that, not a minute earlier.
    const chargeAt = start + 3 * DAY - HOUR;
    clock.set(new Date(chargeAt - DAY - MINUTE));
    await runAlerts();
    expect(await noticeEvents(ann.userId)).toHaveLength(0);
    clock.set(new Date(chargeAt - DAY));
    await runAlerts();
    await runAlerts();
    const events = await noticeEvents(ann.userId);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      proxy: username,
      amount: '6.00',
      days: 3,
      charge_at: '2026-06-03 23:00 UTC',
    });
    const notes = await t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ann.userId), eq(notifications.kind, 'auto_renew_notice')));
    expect(notes).toHaveLength(1);
    expect(notes[0].contentEn).toContain(
      `Proxy ${username} auto-renews for 3 day(s) at about 2026-06-03 23:00 UTC, charging 6.00 yuan`,
    );
    expect(notes[0].contentZh).toContain('扣费 6.00 元');
    // E-mails go out in the language the alert settings were saved in (zh before any save).
    const mails = mailer.sent.filter((m) => m.to === ann.email && m.subject.includes('代理即将自动续费'));
    expect(mails).toHaveLength(1);
    expect(mails[0].html).toContain('取消本次续费');
    expect(mails[0].text).toContain('扣费 6.00 元');
    const link = linkTokenIn(mails[0].text);
    expect(link).toBe(linkTokenIn(notes[0].contentEn));
    const [notice] = await t.db.db.select().from(renewalNotices).where(eq(renewalNotices.tokenId, id));
    expect(notice).toMatchObject({ userId: ann.userId, amountFen: 600, usedAt: null });
    expect(notice.chargeAt.getTime()).toBe(chargeAt);
  });

  it('cancels exactly that renewal once without signing in; a second use, a forged link and another user’s link change nothing', async () => {
    const start = await freshStart('2026-06-10T00:00:00Z');
    const bea = await createUser(t.app, mailer, 'bea');
    const cid = await createUser(t.app, mailer, 'cid');
    const [b1, b2] = (
      await buyOk(t.app, bea.token, '/token/static/ip', { ...ipBody, quantity: 2, days: 1 })
    ).tokens.map((x) => x.token_id);
    const c1 = (await buyOk(t.app, cid.token, '/token/static/ip', { ...ipBody, days: 1 })).tokens[0].token_id;
    await runAlerts();
    // The cancel link in the console notice of a token's renewal (a user has one notice per proxy).
    const linkOf = async (tokenId: number) => {
      const [notice] = await t.db.db.select().from(renewalNotices).where(eq(renewalNotices.tokenId, tokenId));
      const notes = await t.db.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, notice.userId), eq(notifications.kind, 'auto_renew_notice')));
      const link = notes.map((n) => linkTokenIn(n.contentEn)).find((x) => x.startsWith(`${notice.id}.`));
      expect(link, 'a notice with its link').toBeTruthy();
      return link!;
    };
    const linkB1 = await linkOf(b1);
    const linkC1 = await linkOf(c1);

    expect((await cancelInfo(linkB1)).json().data).toMatchObject({
      amount: 2,
      state: 'pending',
      charge_at: new Date(start + DAY - HOUR).toISOString(),
    });
    // Cid's signature on Bea's notice (or any changed character) is refused.
    const forged = `${linkB1.split('.')[0]}.${linkC1.split('.')[1]}`;
    for (const bad of [forged, 'abc', `${linkB1}x`, `999999.${linkB1.split('.')[1]}`]) {
      const res = await cancel(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toMatchObject({ code: 3011, msg: 'This cancel-renewal link is not valid' });
    }
    expect((await cancel(forged, 'zh')).json().msg).toBe('取消续费链接无效');
    expect((await tokenRow(b1)).autoRenew).toBe(true);

    const done = await cancel(linkB1);
    expect(done.json(), done.body).toMatchObject({
      code: 0,
      data: { auto_renew: false, proxy: (await tokenRow(b1)).username },
    });
    expect((await tokenRow(b1)).autoRenew).toBe(false);
    // Only that proxy: Bea's other one and Cid's keep auto-renew.
    expect((await tokenRow(b2)).autoRenew).toBe(true);
    expect((await tokenRow(c1)).autoRenew).toBe(true);
    const again = await cancel(linkB1, 'zh');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 3012, msg: '该取消续费链接已使用过' });
    expect((await cancelInfo(linkB1)).json().data.state).toBe('used');

    // At the charge time the links expire and the renewals charge: Cid's link can no longer stop it.
    clock.set(new Date(start + DAY - HOUR));
    const expired = await cancel(linkC1);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe(3013);
    expect((await cancelInfo(linkC1)).json().data.state).toBe('expired');
    const before = await balanceFen(t.deps, cid.userId);
    await createAutoRenewJob(t.deps).runOnce();
    expect(await balanceFen(t.deps, cid.userId)).toBe(before - 200);
    // Bea's cancelled proxy was not charged; her other one was.
    expect((await tokenRow(b1)).expiresAt.getTime()).toBe(start + DAY);
    expect((await tokenRow(b2)).expiresAt.getTime()).toBe(start + 2 * DAY);
  });

  it('a link expires when its proxy was renewed by hand before the charge time', async () => {
    await freshStart('2026-06-20T00:00:00Z');
    const dan = await createUser(t.app, mailer, 'dan');
    const id = (await buyOk(t.app, dan.token, '/token/static/ip', { ...ipBody, days: 1 })).tokens[0].token_id;
    await runAlerts();
    const [note] = await t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, dan.userId), eq(notifications.kind, 'auto_renew_notice')));
    const link = linkTokenIn(note.contentEn);
    const renewed = await request(t.app, 'POST', '/token/ip/renew', {
      token: dan.token,
      body: { token_ids: [id], days: 1, payway: 'balance' },
    });
    expect(renewed.json().code).toBe(0);
    expect((await cancel(link)).json().code).toBe(3013);
    expect((await tokenRow(id)).autoRenew).toBe(true);
  });

  async function autoRenewed(name: string) {
    const user = await createUser(t.app, mailer, name);
    await creditFen(t.deps, user.userId, 10_000);
    const id = (await buyOk(t.app, user.token, '/token/static/ip', { ...ipBody, days: 1 })).tokens[0].token_id;
    const expiry = (await tokenRow(id)).expiresAt.getTime();
    clock.set(new Date(expiry - 30 * MINUTE));
    await createAutoRenewJob(t.deps).runOnce();
    expect((await tokenRow(id)).expiresAt.getTime()).toBe(expiry + DAY);
    return { user, id, expiry };
  }

  it('undoes an unused auto-renewal within 24 hours: one refund, the old expiry back, auto-renew off; a second undo is refused', async () => {
    await freshStart('2026-07-01T00:00:00Z');
    const { user, id, expiry } = await autoRenewed('eve');
    const charged = await balanceFen(t.deps, user.userId);
    const [renewedNote] = await t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.userId), eq(notifications.kind, 'auto_renewed')));
    expect(renewedNote.contentEn).toContain('undo the renewal for a refund');
    const latest = await request(t.app, 'GET', `/token/auto-renew/latest/${id}`, { token: user.token });
    expect(latest.json().data).toMatchObject({
      token_id: id,
      amount: 2,
      undo_refusal: null,
      previous_expires_at: new Date(expiry).toISOString(),
    });
    clock.advance(23 * HOUR);
    const res = await undo(user, id);
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { token_id: id, refunded: 2, expires_at: new Date(expiry).toISOString() },
    });
    expect(await balanceFen(t.deps, user.userId)).toBe(charged + 200);
    const row = await tokenRow(id);
    expect(row.expiresAt.getTime()).toBe(expiry);
    expect(row.autoRenew).toBe(false);
    const again = await undo(user, id, 'zh');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 3014, msg: '该代理没有可撤销的自动续费' });
    expect(await balanceFen(t.deps, user.userId)).toBe(charged + 200);
    // The auto-renew job does not charge the old period again.
    await createAutoRenewJob(t.deps).runOnce();
    expect(await balanceFen(t.deps, user.userId)).toBe(charged + 200);
    expect(await findLedgerViolations(t.db.db)).toEqual([]);
  });

  it('refuses an undo after traffic, after 24 hours, and for another user’s proxy, moving nothing', async () => {
    await freshStart('2026-07-10T00:00:00Z');
    const used = await autoRenewed('fay');
    await addTokenUsage(t.db.db, used.id, 1);
    const afterUse = await undo(used.user, used.id);
    expect(afterUse.json()).toMatchObject({
      code: 3016,
      msg: 'The proxy has carried traffic since the auto-renewal, so it cannot be undone',
    });
    expect(
      (await request(t.app, 'GET', `/token/auto-renew/latest/${used.id}`, { token: used.user.token })).json().data
        .undo_refusal,
    ).toBe('used');

    await freshStart('2026-07-20T00:00:00Z');
    const late = await autoRenewed('gus');
    const before = await balanceFen(t.deps, late.user.userId);
    clock.advance(DAY + MINUTE);
    await signIn(t.app, late.user, used.user);
    const tooLate = await undo(late.user, late.id);
    expect(tooLate.json().code).toBe(3015);
    const foreign = await undo(used.user, late.id);
    expect(foreign.statusCode).toBe(404);
    expect(await balanceFen(t.deps, late.user.userId)).toBe(before);
    expect((await tokenRow(late.id)).expiresAt.getTime()).toBe(late.expiry + DAY);
  });

  itOnPostgres('8 concurrent undo requests refund once', async () => {
    await freshStart('2026-08-01T00:00:00Z');
    const { user, id, expiry } = await autoRenewed('hal');
    const charged = await balanceFen(t.deps, user.userId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => undo(user, id)));
    const codes = answers.map((r) => r.json().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c !== 0).every((c) => c === 3014)).toBe(true);
    expect(answers.every((r) => r.statusCode < 500)).toBe(true);
    expect(await balanceFen(t.deps, user.userId)).toBe(charged + 200);
    const refunds = await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, user.userId), eq(ledgerEntries.reason, 'refund')));
    expect(refunds).toHaveLength(1);
    expect((await tokenRow(id)).expiresAt.getTime()).toBe(expiry);
    expect(await findLedgerViolations(t.db.db)).toEqual([]);
  });

  itOnPostgres(
    'two instances running the notice job at once write one notice, one alert and one e-mail per renewal',
    async () => {
      await freshStart('2026-08-10T00:00:00Z');
      const kim = await createUser(t.app, mailer, 'kim');
      const ids = (await buyOk(t.app, kim.token, '/token/static/ip', { ...ipBody, quantity: 5, days: 1 })).tokens.map(
        (x) => x.token_id,
      );
      const second = await openDb({ url: (t.db as { url?: string }).url, poolSize: 5 });
      try {
        const otherDeps = { ...t.deps, db: second.db };
        const runAll = (deps: typeof t.deps) => Promise.all(createAlertJobs(deps).map((job) => job.runOnce()));
        await Promise.all([runAll(t.deps), runAll(otherDeps), runAll(t.deps), runAll(otherDeps)]);
        await runAll(t.deps);
        const notices = await t.db.db.select().from(renewalNotices).where(eq(renewalNotices.userId, kim.userId));
        expect(notices.map((n) => n.tokenId).sort((a, b) => a - b)).toEqual(ids);
        expect(await noticeEvents(kim.userId)).toHaveLength(5);
        const notes = await t.db.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, kim.userId), eq(notifications.kind, 'auto_renew_notice')));
        expect(notes).toHaveLength(5);
        expect(mailer.sent.filter((m) => m.to === kim.email && m.subject.includes('代理即将自动续费'))).toHaveLength(5);
      } finally {
        await second.close();
      }
    },
  );

  it('previews a bulk renewal: per-proxy prices, the total, what the balance covers in renewal order, and changes nothing', async () => {
    await freshStart('2026-09-01T00:00:00Z');
    const ivy = await createUser(t.app, mailer, 'ivy');
    const other = await createUser(t.app, mailer, 'jon');
    const ids = (await buyOk(t.app, ivy.token, '/token/static/ip', { ...ipBody, quantity: 3, days: 1 })).tokens.map(
      (x) => x.token_id,
    );
    const foreign = (await buyOk(t.app, other.token, '/token/static/ip', { ...ipBody, days: 1 })).tokens[0].token_id;
    const balance = await balanceFen(t.deps, ivy.userId);
    expect(balance).toBe(900);
    const expiries = await Promise.all(ids.map(async (id) => (await tokenRow(id)).expiresAt.getTime()));
    const res = await request(t.app, 'POST', '/token/ip/renew/preview', {
      token: ivy.token,
      body: { token_ids: [ids[2], foreign, ids[0], ids[1]], days: 2 },
    });
    const data = res.json().data;
    expect(data, res.body).toMatchObject({ days: 2, total: 12, balance: 9, covered_count: 2, covered_total: 8 });
    expect(
      data.items.map((i: { token_id: number; price: number; is_renewable: boolean; is_covered: boolean }) => [
        i.token_id,
        i.price,
        i.is_renewable,
        i.is_covered,
      ]),
    ).toEqual([
      [ids[0], 4, true, true],
      [ids[1], 4, true, true],
      [ids[2], 4, true, false],
      [foreign, 0, false, false],
    ]);
    expect(data.items[3].username).toBe('');
    expect(data.items[0].new_expires_at).toBe(new Date(expiries[0] + 2 * DAY).toISOString());
    // Nothing moved: same balance and expiries; the renewal itself debits the previewed total.
    expect(await balanceFen(t.deps, ivy.userId)).toBe(balance);
    for (const [i, id] of ids.entries()) expect((await tokenRow(id)).expiresAt.getTime()).toBe(expiries[i]);
    await creditFen(t.deps, ivy.userId, 300);
    const renewed = await request(t.app, 'POST', '/token/ip/renew', {
      token: ivy.token,
      body: { token_ids: ids, days: 2, payway: 'balance' },
    });
    expect(renewed.json().data).toMatchObject({ success: 3, cost: data.total });
    // The dynamic preview does not take static proxies.
    const dynamic = await request(t.app, 'POST', '/token/variable/ip/renew/preview', {
      token: ivy.token,
      body: { token_ids: ids, days: 1 },
    });
    expect(dynamic.json().data).toMatchObject({ total: 0, covered_count: 0 });
  });
});
