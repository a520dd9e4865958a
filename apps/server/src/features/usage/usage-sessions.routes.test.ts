import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionExitClaims, stickySessions } from '@proxy/db';
import type { TStickySessionEnd } from '@proxy/contract';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import {
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from '../proxies/proxies-test-kit';
import { createSessionRetentionJob } from './usage-sessions.jobs';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the session hold report (console and customer API) and the retention of session rows', () => {
  // The report covers the 7 days before now: from 2026-04-03T02:00Z.
  const clock = createFakeClock(new Date('2026-04-10T02:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let annsKey: string;
  let dynamic: number;
  let other: number;
  let staticIp: number;
  let bensToken: number;

  async function addSession(values: {
    tokenId: number;
    userId: number;
    session: string;
    firstSeen: string;
    /** Minutes from the first connection to the last. */
    usedMinutes: number;
    asked?: number;
    /** Minutes from the first connection to the early end, with its reason. */
    end?: { afterMinutes: number; reason: TStickySessionEnd };
    windowStart?: string;
  }) {
    const first = new Date(values.firstSeen);
    await t.db.db.insert(stickySessions).values({
      tokenId: values.tokenId,
      userId: values.userId,
      session: values.session,
      windowStart: new Date(values.windowStart ?? values.firstSeen),
      askedMinutes: values.asked ?? 10,
      firstSeenAt: first,
      lastSeenAt: new Date(first.getTime() + values.usedMinutes * MINUTE),
      carrier: 'pool:1',
      exitIp: '198.51.100.4',
      changedAt: values.end ? new Date(first.getTime() + values.end.afterMinutes * MINUTE) : null,
      endReason: values.end?.reason ?? null,
      connections: 3,
    });
  }

  async function holds(query: string, token = ann.token, lang = 'en') {
    const res = await request(t.app, 'GET', `/token/session/holds?${query}`, { token, lang });
    return { status: res.statusCode, body: res.json() };
  }

  beforeAll(async () => {
    clock.set(new Date('2026-04-01T02:00:00Z'));
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 100_000);
    const base = { network: 'HTTP', country_id: 'us', quantity: 1, traffic_gb: 0.1 };
    dynamic = (await buyOk(t.app, ann.token, '/token/variable/traffic', base)).tokens[0].token_id;
    other = (await buyOk(t.app, ann.token, '/token/variable/traffic', base)).tokens[0].token_id;
    bensToken = (await buyOk(t.app, ben.token, '/token/variable/traffic', base)).tokens[0].token_id;
    staticIp = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, traffic_gb: undefined, days: 1 }))
      .tokens[0].token_id;
    annsKey = (await request(t.app, 'GET', '/user/info', { token: ann.token })).json().data.token as string;

    const a = { tokenId: dynamic, userId: ann.userId };
    // Held: used 8 of its 10 minutes without leaving its exit.
    await addSession({ ...a, session: 'held1', firstSeen: '2026-04-09T10:00:00Z', usedMinutes: 8 });
    // Moved by failover after 4.5 minutes (it went on elsewhere until 9 minutes).
    await addSession({
      ...a,
      session: 'fail1',
      firstSeen: '2026-04-09T09:00:00Z',
      usedMinutes: 9,
      end: { afterMinutes: 4.5, reason: 'failover' },
    });
    await addSession({
      ...a,
      session: 'chg1',
      firstSeen: '2026-04-09T08:00:00Z',
      usedMinutes: 20,
      asked: 30,
      end: { afterMinutes: 1, reason: 'exit-changed' },
    });
    await addSession({
      ...a,
      session: 'idle1',
      firstSeen: '2026-04-08T08:00:00Z',
      usedMinutes: 25,
      asked: 60,
      end: { afterMinutes: 12, reason: 'idle' },
    });
    await addSession({
      ...a,
      session: 'stop1',
      firstSeen: '2026-04-07T08:00:00Z',
      usedMinutes: 2,
      end: { afterMinutes: 2, reason: 'proxy-stopped' },
    });
    // Held, the same session id in an earlier window; its window started before the period, its first use in it.
    await addSession({
      ...a,
      session: 'held1',
      firstSeen: '2026-04-03T02:30:00Z',
      windowStart: '2026-04-03T01:50:00Z',
      usedMinutes: 120,
      asked: 120,
    });
    // Before the period: not reported.
    await addSession({
      ...a,
      session: 'old1',
      firstSeen: '2026-04-03T01:59:00Z',
      usedMinutes: 1,
      end: { afterMinutes: 1, reason: 'failover' },
    });
    // Another proxy of the account and another account's proxy.
    await addSession({
      tokenId: other,
      userId: ann.userId,
      session: 'x',
      firstSeen: '2026-04-09T10:00:00Z',
      usedMinutes: 1,
    });
    await addSession({
      tokenId: bensToken,
      userId: ben.userId,
      session: 'b',
      firstSeen: '2026-04-09T10:00:00Z',
      usedMinutes: 1,
      end: { afterMinutes: 1, reason: 'idle' },
    });
    clock.set(new Date('2026-04-10T02:00:00Z'));
    await signIn(t.app, ann, ben);
  });
  afterAll(async () => {
    await t.close();
  });

  it("sums a proxy's sessions of the last 7 days exactly: sessions, the share that held, early ends per reason", async () => {
    const { status, body } = await holds(`token_id=${dynamic}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.summary).toEqual({
      sessions: 6,
      held: 2,
      held_share: 0.3333,
      ends: { failover: 1, 'exit-changed': 1, idle: 1, 'proxy-stopped': 1 },
    });
    expect(body.data.total).toBe(6);
    expect(body.data.from).toBe('2026-04-03T02:00:00.000Z');
    expect(body.data.to).toBe('2026-04-10T02:00:00.000Z');
  });

  it('lists them newest first with minutes asked and kept, held or why it ended early', async () => {
    const { body } = await holds(`token_id=${dynamic}`);
    const rows = body.data.records as Record<string, unknown>[];
    expect(rows.map((r) => [r.session, r.asked_minutes, r.kept_minutes, r.held, r.end_reason])).toEqual([
      ['held1', 10, 8, true, null],
      ['fail1', 10, 4.5, false, 'failover'],
      ['chg1', 30, 1, false, 'exit-changed'],
      ['idle1', 60, 12, false, 'idle'],
      ['stop1', 10, 2, false, 'proxy-stopped'],
      ['held1', 120, 120, true, null],
    ]);
    expect(rows[0]).toEqual({
      session: 'held1',
      started_at: '2026-04-09T10:00:00.000Z',
      last_seen_at: '2026-04-09T10:08:00.000Z',
      asked_minutes: 10,
      kept_minutes: 8,
      held: true,
      end_reason: null,
      end_reason_text: null,
      connections: 3,
    });
    expect(rows.slice(1, 5).map((r) => r.end_reason_text)).toEqual([
      'Pool failed, moved to another exit',
      'The pool changed the exit',
      'Idle longer than the pool keeps a session',
      'Proxy stopped (disabled, expired or traffic used up)',
    ]);
    // Operators' fields never reach the customer.
    expect(Object.keys(rows[1])).not.toContain('carrier');
  });

  it('pages like every list, the summary over every session of the period', async () => {
    const second = await holds(`token_id=${dynamic}&page=2&page_size=2`);
    expect(second.body.data.records.map((r: { session: string }) => r.session)).toEqual(['chg1', 'idle1']);
    expect(second.body.data).toMatchObject({ total: 6, page: 2, page_size: 2 });
    expect(second.body.data.summary.sessions).toBe(6);
    const zh = await holds(`token_id=${dynamic}&page_size=2`, ann.token, 'zh');
    expect(zh.body.data.records[1].end_reason_text).toBe('代理池故障，已切换到其他出口');
  });

  it('reports a proxy whose sessions all held with a share of 1, and one without sessions with zeros', async () => {
    const all = await holds(`token_id=${other}`);
    expect(all.body.data.summary).toEqual({
      sessions: 1,
      held: 1,
      held_share: 1,
      ends: { failover: 0, 'exit-changed': 0, idle: 0, 'proxy-stopped': 0 },
    });
    const none = await holds(`token_id=${staticIp}`);
    expect(none.body.data).toMatchObject({ records: [], total: 0 });
    expect(none.body.data.summary).toEqual({
      sessions: 0,
      held: 0,
      held_share: 0,
      ends: { failover: 0, 'exit-changed': 0, idle: 0, 'proxy-stopped': 0 },
    });
    const bens = await holds(`token_id=${bensToken}`, ben.token);
    expect(bens.body.data.summary).toMatchObject({ sessions: 1, held: 0 });
  });

  it("refuses another account's proxy (404), a missing or bad token_id (400) and a call without a session", async () => {
    const foreign = await holds(`token_id=${bensToken}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.data.error).toBe('NOT_FOUND');
    const missing = await holds('', ann.token, 'zh');
    expect(missing.status).toBe(400);
    expect(missing.body.data.issues[0].path).toBe('token_id');
    const bad = await holds('token_id=abc');
    expect(bad.status).toBe(400);
    const page = await holds(`token_id=${dynamic}&page_size=500`);
    expect(page.status).toBe(400);
    expect((await request(t.app, 'GET', `/token/session/holds?token_id=${dynamic}`)).statusCode).toBe(401);
  });

  it('answers the same report through the customer API with the API key, and refuses another account’s proxy', async () => {
    const res = await request(t.app, 'GET', `/v1/proxies/${dynamic}/sessions?pageSize=1&page=2`, {
      headers: { 'x-api-key': annsKey },
      lang: 'zh',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.records.map((r: { session: string }) => r.session)).toEqual(['fail1']);
    expect(data.records[0].end_reason_text).toBe('代理池故障，已切换到其他出口');
    expect(data).toMatchObject({ total: 6, page: 2, page_size: 1 });
    expect(data.summary.held).toBe(2);
    const foreign = await request(t.app, 'GET', `/v1/proxies/${bensToken}/sessions`, {
      headers: { 'x-api-key': annsKey },
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await request(t.app, 'GET', `/v1/proxies/99999/sessions`, { headers: { 'x-api-key': annsKey } });
    expect(unknown.statusCode).toBe(404);
    const bad = await request(t.app, 'GET', `/v1/proxies/x/sessions`, { headers: { 'x-api-key': annsKey } });
    expect(bad.statusCode).toBe(400);
  });

  it('deletes sticky sessions whose window started over 8 days ago and lapsed exit claims, once an hour', async () => {
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    await addSession({
      tokenId: other,
      userId: ann.userId,
      session: 'ancient',
      firstSeen: at(-8 * DAY - MINUTE),
      usedMinutes: 1,
    });
    await addSession({
      tokenId: other,
      userId: ann.userId,
      session: 'kept',
      firstSeen: at(-8 * DAY + MINUTE),
      usedMinutes: 1,
    });
    await t.db.db.insert(sessionExitClaims).values([
      { userId: ann.userId, exitKey: 'exit:1', sessionKey: 'a', expiresAt: new Date(now - 1000) },
      { userId: ann.userId, exitKey: 'ip:198.51.100.4', sessionKey: 'b', expiresAt: new Date(now + 2 * HOUR) },
      { userId: ben.userId, exitKey: 'exit:1', sessionKey: 'c', expiresAt: new Date(now - DAY) },
    ]);
    const sessionNames = async () =>
      (await t.db.db.select({ s: stickySessions.session }).from(stickySessions)).map((r) => r.s).sort();
    const claims = async () =>
      (await t.db.db.select({ k: sessionExitClaims.sessionKey }).from(sessionExitClaims)).map((r) => r.k).sort();

    const job = createSessionRetentionJob(t.deps);
    expect(await job.runOnce()).toBe(2);
    expect(await sessionNames()).not.toContain('ancient');
    expect(await sessionNames()).toContain('kept');
    expect(await sessionNames()).toContain('old1');
    expect(await claims()).toEqual(['b']);

    // Within the hour the job does nothing; an hour on, the next rows past their time go.
    clock.set(new Date(now + 2 * MINUTE));
    expect(await job.runOnce()).toBe(0);
    expect(await sessionNames()).toContain('kept');
    clock.set(new Date(now + HOUR));
    expect(await job.runOnce()).toBe(1);
    expect(await sessionNames()).not.toContain('kept');
    clock.set(new Date(now));
  });
});
