import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exitNodes, ledgerEntries, notifications, openDb, proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres } from '../../test/helpers';
import { readGatewayVersion } from '../features/gateway/gateway-state.repository';
import { importInventory } from '../features/inventory/inventory.service';
import { addTokenUsage } from '../features/proxies/proxies.repository';
import {
  balanceFen,
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
} from '../features/proxies/proxies-test-kit';
import { createAutoRenewJob, createExhaustionJob, createExpiryJob } from './token-jobs';
import { createJobRunner } from './job-runner';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describe('token lifecycle jobs', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
  });
  afterAll(async () => {
    await t.close();
  });

  const ipBody = { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };

  // Tokens of earlier tests whose expiry the fake clock jumped past.
  async function expireEarlierTokens() {
    await createExpiryJob(t.deps).runOnce();
  }

  async function tokenRow(id: number) {
    const [row] = await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.id, id));
    return row;
  }

  it('auto-renews within the hour before expiry: one debit, extended by the period; a second run does nothing', async () => {
    const start = clock.now().getTime();
    const gil = await createUser(t.app, mailer, 'gil');
    const id = (await buyOk(t.app, gil.token, '/token/static/ip', { ...ipBody, auto_renew: true })).tokens[0].token_id;
    expect(await balanceFen(t.deps, gil.userId)).toBe(1300);
    const job = createAutoRenewJob(t.deps);
    // Two hours before expiry: not yet.
    clock.set(new Date(start + DAY - 2 * 60 * MINUTE));
    expect(await job.runOnce()).toBe(0);
    clock.set(new Date(start + DAY - 30 * MINUTE));
    const version = await readGatewayVersion(t.db.db);
    expect(await job.runOnce()).toBe(1);
    expect(await balanceFen(t.deps, gil.userId)).toBe(1100);
    expect((await tokenRow(id)).expiresAt.getTime()).toBe(start + 2 * DAY);
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(await job.runOnce()).toBe(0);
    expect(await balanceFen(t.deps, gil.userId)).toBe(1100);
    const entries = await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, gil.userId), eq(ledgerEntries.reason, 'auto_renew')));
    expect(entries).toHaveLength(1);
    expect(entries[0].idempotencyKey).toBe(`auto-renew:${id}:${start + DAY}`);
    // The expiry job leaves the renewed token alone.
    expect(await createExpiryJob(t.deps).runOnce()).toBe(0);
    expect((await tokenRow(id)).status).toBe('enabled');
  });

  it('without balance writes one notification (zh and en) and lets the token expire', async () => {
    clock.set(new Date('2026-06-01T00:00:00Z'));
    await expireEarlierTokens();
    const start = clock.now().getTime();
    const hal = await createUser(t.app, mailer, 'hal');
    const id = (await buyOk(t.app, hal.token, '/token/static/ip', { ...ipBody, days: 7, auto_renew: true })).tokens[0]
      .token_id;
    expect(await balanceFen(t.deps, hal.userId)).toBe(100);
    const job = createAutoRenewJob(t.deps);
    clock.set(new Date(start + 7 * DAY - 10 * MINUTE));
    expect(await job.runOnce()).toBe(1);
    expect(await job.runOnce()).toBe(0);
    expect(await balanceFen(t.deps, hal.userId)).toBe(100);
    const notes = await t.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, hal.userId), eq(notifications.kind, 'auto_renew_failed')));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ titleZh: '自动续费失败', titleEn: 'Auto-renewal failed' });
    clock.set(new Date(start + 7 * DAY));
    expect(await createExpiryJob(t.deps).runOnce()).toBe(1);
    expect((await tokenRow(id)).status).toBe('expired');
    await signIn(t.app, hal);
    const list = await request(t.app, 'GET', '/token/list/static/ip?status=expired', { token: hal.token });
    expect(list.json().data.records[0]).toMatchObject({ token_id: id, status: 'expired' });
  });

  it('expires tokens at expires_at and gives an unrenewed static IP node back to the pool for a new purchase', async () => {
    clock.set(new Date('2026-07-01T00:00:00Z'));
    await expireEarlierTokens();
    await importInventory(t.deps, 'socks5://10.7.0.1:1080:a:b,gb,eng,london\n', 'residential');
    const [node] = await t.db.db.select().from(exitNodes).where(eq(exitNodes.host, '10.7.0.1'));
    const ida = await createUser(t.app, mailer, 'ida');
    const jon = await createUser(t.app, mailer, 'jon');
    const body = { ...ipBody, country_id: 'gb', state_id: 'eng', city_id: 'london' };
    const id = (await buyOk(t.app, ida.token, '/token/static/ip', body)).tokens[0].token_id;
    expect((await t.db.db.select().from(exitNodes).where(eq(exitNodes.id, node.id)))[0].holderTokenId).toBe(id);
    const full = await request(t.app, 'POST', '/token/static/ip', { token: jon.token, body });
    expect(full.json().code).toBe(3001);
    const job = createExpiryJob(t.deps);
    clock.advance(DAY - 1);
    expect(await job.runOnce()).toBe(0);
    clock.advance(1);
    const version = await readGatewayVersion(t.db.db);
    expect(await job.runOnce()).toBe(1);
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(await tokenRow(id)).toMatchObject({ status: 'expired', exitNodeId: null });
    expect((await t.db.db.select().from(exitNodes).where(eq(exitNodes.id, node.id)))[0].holderTokenId).toBeNull();
    const areas = await request(t.app, 'GET', '/token/list/area/city?country_id=gb&state_id=eng', {
      token: jon.token,
      lang: 'en',
    });
    expect(areas.json().data).toEqual([
      { id: 'london', name: 'London', name_zh: 'London', name_en: 'London', available: 1 },
    ]);
    const again = await buyOk(t.app, jon.token, '/token/static/ip', body);
    expect((await tokenRow(again.tokens[0].token_id)).exitNodeId).toBe(node.id);
  });

  it('marks a traffic token whose usage reached its allowance invalid', async () => {
    const kim = await createUser(t.app, mailer, 'kim');
    const id = (
      await buyOk(t.app, kim.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0].token_id;
    const job = createExhaustionJob(t.deps);
    await addTokenUsage(t.db.db, id, 107374181);
    expect(await job.runOnce()).toBe(0);
    await addTokenUsage(t.db.db, id, 1);
    const version = await readGatewayVersion(t.db.db);
    expect(await job.runOnce()).toBe(1);
    expect((await tokenRow(id)).status).toBe('invalid');
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(await job.runOnce()).toBe(0);
  });

  it('runs jobs periodically until stopped', async () => {
    // Timers moved by hand: each pass is due at a known time, and "no pass after stop" is a fact, not a wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let runs = 0;
      const runner = createJobRunner({
        jobs: [{ name: 'count', runOnce: async () => ++runs }],
        intervalMs: 100,
        log: console,
      });
      runner.start();
      await vi.advanceTimersByTimeAsync(99);
      expect(runs).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(runs).toBe(3);
      await runner.stop();
      // Stopped: nothing left scheduled, and ten intervals later no further pass.
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(runs).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  itOnPostgres('two server instances auto-renewing at once never debit a token twice', async () => {
    clock.set(new Date('2026-08-01T00:00:00Z'));
    await expireEarlierTokens();
    const start = clock.now().getTime();
    const lee = await createUser(t.app, mailer, 'lee');
    await creditFen(t.deps, lee.userId, 100_000);
    const bought = await buyOk(t.app, lee.token, '/token/static/ip', { ...ipBody, quantity: 30, auto_renew: true });
    const ids = bought.tokens.map((x) => x.token_id);
    const before = await balanceFen(t.deps, lee.userId);
    const url = (t.db as { url?: string }).url;
    const second = await openDb({ url, poolSize: 10 });
    try {
      clock.set(new Date(start + DAY - 5 * MINUTE));
      const jobs = [
        createAutoRenewJob(t.deps),
        createAutoRenewJob({ db: second.db, clock, gatewayApplied: async () => {} }),
        createAutoRenewJob(t.deps),
        createAutoRenewJob({ db: second.db, clock, gatewayApplied: async () => {} }),
      ];
      const counts = await Promise.all(jobs.map((j) => j.runOnce()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      expect(counts.filter((c) => c > 0).length).toBeGreaterThan(1);
      expect(await Promise.all(jobs.map((j) => j.runOnce()))).toEqual([0, 0, 0, 0]);
      expect(await balanceFen(t.deps, lee.userId)).toBe(before - 30 * 200);
      const entries = await t.db.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, lee.userId), eq(ledgerEntries.reason, 'auto_renew')));
      expect(entries).toHaveLength(30);
      for (const id of ids) expect((await tokenRow(id)).expiresAt.getTime()).toBe(start + 2 * DAY);
    } finally {
      await second.close();
    }
  });
});
