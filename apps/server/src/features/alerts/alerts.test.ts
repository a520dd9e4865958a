import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents, notifications, openDb, proxyTokens } from '@proxy/db';
import { createFakeClock, createTestApp, itOnPostgres, type TTestApp } from '../../../test/helpers';
import { startSmtpSink, smtpTeeMailer } from '../../../test/smtp-sink';
import { addTokenUsage } from '../proxies/proxies.repository';
import { buyOk, createUser, creditFen, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';
import { createExpiryJob } from '../../jobs/token-jobs';
import { createLedgerService } from '../ledger/ledger.service';
import { createAlertJobs } from './alerts.jobs';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const LIMIT = 107_374_182; // 0.1 GB

describe('alerts', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let mailer: ReturnType<typeof smtpTeeMailer>;
  let t: TTestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    mailer = smtpTeeMailer(sink.url);
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const runAlerts = async (deps = t.deps) => {
    let total = 0;
    for (const job of createAlertJobs(deps)) total += await job.runOnce();
    return total;
  };
  const events = (userId: number, kind?: string) =>
    t.db.db
      .select()
      .from(alertEvents)
      .where(and(eq(alertEvents.userId, userId), kind ? eq(alertEvents.kind, kind) : undefined))
      .orderBy(alertEvents.id);
  const notes = (userId: number, kind: string) =>
    t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)))
      .orderBy(notifications.id);
  const settingsOf = async (user: TTestUser, lang = 'en') =>
    (await request(t.app, 'GET', '/user/alerts/settings', { token: user.token, lang })).json().data;
  const save = (user: TTestUser, body: object, lang = 'en') =>
    request(t.app, 'PUT', '/user/alerts/settings', { token: user.token, body, lang });
  const buyTraffic = async (user: TTestUser) =>
    (
      await buyOk(t.app, user.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0].token_id;

  it('has defaults (80 and 100 %, no balance threshold, every channel on) and saves settings; bad input is a clear 400 in zh and en', async () => {
    const amy = await createUser(t.app, mailer, 'amy');
    const defaults = await settingsOf(amy);
    expect(defaults.usage_thresholds).toEqual([80, 100]);
    expect(defaults.balance_low_yuan).toBeNull();
    expect(defaults.channels.usage_threshold).toEqual({ console: true, email: true });
    const changed = {
      ...defaults,
      usage_thresholds: [100, 50],
      balance_low_yuan: 12.5,
      channels: { ...defaults.channels, balance_low: { console: true, email: false } },
    };
    const res = await save(amy, changed);
    expect(res.json().code).toBe(0);
    expect(await settingsOf(amy)).toEqual({ ...changed, usage_thresholds: [50, 100] });
    const bad = await save(amy, { ...defaults, usage_thresholds: [70] }, 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0].message).toBe('流量提醒阈值只能为 50、80、100（不可重复）');
    const badBalance = await save(amy, { ...defaults, balance_low_yuan: 0.001 }, 'en');
    expect(badBalance.statusCode).toBe(400);
    expect(badBalance.json().data.issues[0].message).toContain('balance alert threshold');
    const missing = await save(amy, { usage_thresholds: [80] }, 'en');
    expect(missing.statusCode).toBe(400);
    expect((await request(t.app, 'GET', '/user/alerts/settings')).statusCode).toBe(401);
  });

  it('alerts each traffic threshold once per allowance as usage crosses it, and not again when the jobs run again', async () => {
    const bob = await createUser(t.app, mailer, 'bob');
    const defaults = await settingsOf(bob);
    await save(bob, { ...defaults, usage_thresholds: [50, 80, 100] });
    const id = await buyTraffic(bob);
    await addTokenUsage(t.db.db, id, Math.floor(LIMIT * 0.49));
    await runAlerts();
    expect(await events(bob.userId)).toEqual([]);
    const percents: number[] = [];
    for (const [share, percent] of [
      [0.51, 50],
      [0.81, 80],
      [1, 100],
    ] as const) {
      // Usage just past the share (the gateway's flush adds to the same column).
      const [row] = await t.db.db
        .select({ used: proxyTokens.trafficUsedBytes })
        .from(proxyTokens)
        .where(eq(proxyTokens.id, id));
      await addTokenUsage(t.db.db, id, Math.ceil(LIMIT * share) - row.used);
      await runAlerts();
      await runAlerts();
      percents.push(percent);
      const usage = await events(bob.userId, 'usage_threshold');
      expect(usage.map((e) => e.payload.percent)).toEqual(percents);
    }
    const written = await notes(bob.userId, 'usage_threshold');
    expect(written.map((n) => n.titleEn)).toEqual([
      'Proxy traffic 50% used',
      'Proxy traffic 80% used',
      'Proxy traffic 100% used',
    ]);
    expect(written[1].contentZh).toContain('已使用');
    expect((await events(bob.userId, 'usage_threshold'))[0].period).toBe(`${LIMIT}:50`);
  });

  it('uses the default thresholds (80 and 100 %) for an account that never saved settings', async () => {
    const cat = await createUser(t.app, mailer, 'cat');
    const id = await buyTraffic(cat);
    await addTokenUsage(t.db.db, id, Math.ceil(LIMIT * 0.6));
    await runAlerts();
    expect(await events(cat.userId)).toEqual([]);
    await addTokenUsage(t.db.db, id, Math.ceil(LIMIT * 0.3));
    await runAlerts();
    expect((await events(cat.userId, 'usage_threshold')).map((e) => e.payload.percent)).toEqual([80]);
  });

  it('respects the channel switches: console off writes no notification, e-mail off sends none', async () => {
    const dan = await createUser(t.app, mailer, 'dan');
    const defaults = await settingsOf(dan);
    await save(dan, {
      ...defaults,
      channels: { ...defaults.channels, usage_threshold: { console: false, email: true } },
    });
    const eve = await createUser(t.app, mailer, 'eve');
    await save(eve, {
      ...defaults,
      channels: { ...defaults.channels, usage_threshold: { console: true, email: false } },
    });
    const sentBefore = mailer.sent.length;
    for (const user of [dan, eve]) await addTokenUsage(t.db.db, await buyTraffic(user), LIMIT);
    await runAlerts();
    expect(await notes(dan.userId, 'usage_threshold')).toHaveLength(0);
    expect((await events(dan.userId, 'usage_threshold')).map((e) => e.mailState)).toEqual(['sent', 'sent']);
    expect(await notes(eve.userId, 'usage_threshold')).toHaveLength(2);
    expect((await events(eve.userId, 'usage_threshold')).map((e) => e.mailState)).toEqual(['none', 'none']);
    const newMails = mailer.sent.slice(sentBefore);
    expect(newMails.filter((m) => m.to === dan.email)).toHaveLength(2);
    expect(newMails.filter((m) => m.to === eve.email)).toHaveLength(0);
  });

  it('delivers the e-mail to the SMTP sink in the language the settings were saved in', async () => {
    const fay = await createUser(t.app, mailer, 'fay');
    const gus = await createUser(t.app, mailer, 'gus');
    await save(fay, await settingsOf(fay), 'en');
    await save(gus, await settingsOf(gus), 'zh');
    const received = sink.received.length;
    for (const user of [fay, gus]) await addTokenUsage(t.db.db, await buyTraffic(user), Math.ceil(LIMIT * 0.85));
    await runAlerts();
    const atSink = sink.received.slice(received);
    const toFay = atSink.filter((m) => m.to.includes(fay.email));
    expect(toFay).toHaveLength(1);
    expect(toFay[0].raw).toContain('Subject: ProxyHub alert: Proxy traffic 80% used');
    expect(atSink.filter((m) => m.to.includes(gus.email))).toHaveLength(1);
    const zh = mailer.sent.find((m) => m.to === gus.email && m.subject.includes('提醒'));
    expect(zh?.subject).toBe('ProxyHub 提醒：代理流量已用 80%');
    expect(zh?.text).toContain('提醒设置');
  });

  it('reminds 3 days and 1 day before expiry and when it expires, once each (injected clock)', async () => {
    const hal = await createUser(t.app, mailer, 'hal');
    await creditFen(t.deps, hal.userId, 10_000);
    const start = clock.now().getTime();
    const id = (
      await buyOk(t.app, hal.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 5 })
    ).tokens[0].token_id;
    const kinds = async () => (await events(hal.userId)).map((e) => `${e.kind}:${e.period.split(':')[1] ?? ''}`);
    clock.set(new Date(start + DAY));
    await runAlerts();
    expect(await kinds()).toEqual([]);
    clock.set(new Date(start + 2 * DAY + MINUTE));
    await runAlerts();
    await runAlerts();
    expect(await kinds()).toEqual(['proxy_expiring:3d']);
    clock.set(new Date(start + 4 * DAY + MINUTE));
    await runAlerts();
    expect(await kinds()).toEqual(['proxy_expiring:3d', 'proxy_expiring:1d']);
    clock.set(new Date(start + 5 * DAY + MINUTE));
    await createExpiryJob(t.deps).runOnce();
    await runAlerts();
    await runAlerts();
    expect(await kinds()).toEqual(['proxy_expiring:3d', 'proxy_expiring:1d', 'proxy_expired:']);
    const titles = (await t.db.db.select().from(notifications).where(eq(notifications.userId, hal.userId))).map(
      (n) => n.titleEn,
    );
    expect(titles).toEqual(
      expect.arrayContaining([
        'Proxy expires soon: 3 day(s) left',
        'Proxy expires soon: 1 day(s) left',
        'Proxy expired',
      ]),
    );
    expect((await events(hal.userId, 'proxy_expired'))[0].subjectId).toBe(id);
  });

  it('alerts once when the balance falls below the threshold, and again after it recovered and fell again', async () => {
    clock.set(new Date('2026-06-01T00:00:00Z'));
    await createExpiryJob(t.deps).runOnce();
    const ivy = await createUser(t.app, mailer, 'ivy');
    await creditFen(t.deps, ivy.userId, 1000); // 25 yuan with the trial
    await runAlerts();
    const defaults = await settingsOf(ivy);
    await save(ivy, { ...defaults, balance_low_yuan: 20 });
    await runAlerts();
    expect(await events(ivy.userId, 'balance_low')).toEqual([]);
    const ledger = createLedgerService(t.deps);
    await ledger.debit({ userId: ivy.userId, amountFen: 600, reason: 'adjustment' });
    await runAlerts();
    await runAlerts();
    const low = await events(ivy.userId, 'balance_low');
    expect(low.map((e) => e.payload)).toEqual([{ balance: '19.00', threshold: '20.00' }]);
    expect((await notes(ivy.userId, 'balance_low'))[0].contentEn).toContain('19.00 yuan');
    await creditFen(t.deps, ivy.userId, 500);
    await runAlerts();
    expect(await events(ivy.userId, 'balance_low')).toHaveLength(1);
    await ledger.debit({ userId: ivy.userId, amountFen: 1000, reason: 'adjustment' });
    await runAlerts();
    expect((await events(ivy.userId, 'balance_low')).map((e) => e.period)).toEqual([
      low[0].period,
      String(Number(low[0].period) + 1),
    ]);
  });

  it('warns a day ahead when an auto-renewal will fail for lack of balance, once per expiry; not when the balance covers it', async () => {
    clock.set(new Date('2026-07-01T00:00:00Z'));
    await createExpiryJob(t.deps).runOnce();
    const jay = await createUser(t.app, mailer, 'jay');
    const kay = await createUser(t.app, mailer, 'kay');
    const start = clock.now().getTime();
    // 7 days at 2 yuan a day: 14 of the 15 yuan trial; the renewal needs 14 more.
    for (const user of [jay, kay])
      await buyOk(t.app, user.token, '/token/static/ip', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        days: 7,
        auto_renew: true,
      });
    await creditFen(t.deps, kay.userId, 2000);
    clock.set(new Date(start + 5 * DAY));
    await runAlerts();
    expect(await events(jay.userId, 'auto_renew_will_fail')).toEqual([]);
    clock.set(new Date(start + 6 * DAY + MINUTE));
    await runAlerts();
    await runAlerts();
    const warned = await events(jay.userId, 'auto_renew_will_fail');
    expect(warned).toHaveLength(1);
    expect(warned[0].payload).toMatchObject({ price: '14.00', due: '14.00', balance: '1.00' });
    expect(await events(kay.userId, 'auto_renew_will_fail')).toEqual([]);
    // Auto-renewed tokens never get expiry reminders.
    expect(await events(kay.userId, 'proxy_expiring')).toEqual([]);
  });

  itOnPostgres('two instances running the alert jobs at once write each alert once', async () => {
    const lou = await createUser(t.app, mailer, 'lou');
    await creditFen(t.deps, lou.userId, 100_000);
    await save(lou, { ...(await settingsOf(lou)), usage_thresholds: [50, 80, 100] });
    const ids = (
      await buyOk(t.app, lou.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 20,
        traffic_gb: 0.1,
      })
    ).tokens.map((x) => x.token_id);
    for (const id of ids) await addTokenUsage(t.db.db, id, LIMIT);
    const second = await openDb({ url: (t.db as { url?: string }).url, poolSize: 10 });
    try {
      const otherDeps = { ...t.deps, db: second.db };
      await Promise.all([runAlerts(), runAlerts(otherDeps), runAlerts(), runAlerts(otherDeps)]);
      const usage = await events(lou.userId, 'usage_threshold');
      expect(usage).toHaveLength(60);
      expect(new Set(usage.map((e) => `${e.subjectId}:${e.period}`)).size).toBe(60);
      expect(await notes(lou.userId, 'usage_threshold')).toHaveLength(60);
      expect(mailer.sent.filter((m) => m.to === lou.email && m.subject.includes('alert'))).toHaveLength(60);
    } finally {
      await second.close();
    }
  });
});
