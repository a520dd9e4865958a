import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageLogEntries } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { buyOk, createUser, request, seedProxyStartup, signIn, type TTestUser } from '../proxies/proxies-test-kit';
import { createUsageLogRetentionJob } from './usage-log.jobs';

describe('the usage log API and its retention', () => {
  const clock = createFakeClock(new Date('2026-04-10T02:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let annsToken: number;
  let bensToken: number;

  async function addRow(values: {
    tokenId: number;
    userId: number;
    endedAt: string;
    host?: string;
    outcome?: 'closed' | 'refused' | 'cut';
    up?: number;
    down?: number;
  }) {
    const ended = new Date(values.endedAt);
    await t.db.db.insert(usageLogEntries).values({
      userId: values.userId,
      tokenId: values.tokenId,
      day: values.endedAt.slice(0, 10),
      protocol: 'connect',
      sourceIp: '203.0.113.7',
      targetHost: values.host ?? 'example.com',
      targetPort: 443,
      startedAt: new Date(ended.getTime() - 1000),
      endedAt: ended,
      bytesUp: values.up ?? 100,
      bytesDown: values.down ?? 1000,
      outcome: values.outcome ?? 'closed',
      reason: values.outcome === 'refused' ? 'upstream-failed' : null,
    });
  }

  const days = async (tokenId: number) =>
    (await t.db.db.select({ day: usageLogEntries.day }).from(usageLogEntries).where(eq(usageLogEntries.tokenId, tokenId))).map((r) => r.day).sort();

  beforeAll(async () => {
    clock.set(new Date('2026-04-01T02:00:00Z'));
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    const base = { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 };
    annsToken = (await buyOk(t.app, ann.token, '/token/static/ip', base)).tokens[0].token_id;
    bensToken = (await buyOk(t.app, ben.token, '/token/static/ip', base)).tokens[0].token_id;
    clock.set(new Date('2026-04-10T02:00:00Z'));
    await signIn(t.app, ann, ben);
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists a proxy's connections in a window with filters, and totals over every match", async () => {
    await addRow({ tokenId: annsToken, userId: ann.userId, endedAt: '2026-04-09T10:00:00.000Z', host: 'api.example.com', up: 10, down: 20 });
    await addRow({ tokenId: annsToken, userId: ann.userId, endedAt: '2026-04-09T11:00:00.000Z', host: 'cdn.other.net', up: 30, down: 40 });
    await addRow({ tokenId: annsToken, userId: ann.userId, endedAt: '2026-04-09T12:00:00.000Z', host: 'api.example.com', outcome: 'refused', up: 0, down: 0 });
    // Outside the default window (the last 24 hours).
    await addRow({ tokenId: annsToken, userId: ann.userId, endedAt: '2026-04-08T12:00:00.000Z', up: 5000, down: 5000 });
    await addRow({ tokenId: bensToken, userId: ben.userId, endedAt: '2026-04-09T10:00:00.000Z' });

    const all = (await request(t.app, 'GET', `/token/usage-log/${annsToken}?page_size=2`, { token: ann.token })).json().data;
    expect(all.total).toBe(3);
    expect(all.records).toHaveLength(2);
    expect(all.records[0].ended_at).toBe('2026-04-09T12:00:00.000Z');
    expect(all.totals).toEqual({ connections: 3, bytes_up: 40, bytes_down: 60, bytes: 100 });
    expect(all.from).toBe('2026-04-09T02:00:00.000Z');

    const byTarget = (await request(t.app, 'GET', `/token/usage-log/${annsToken}?target=example.COM`, { token: ann.token })).json().data;
    expect(byTarget.totals).toEqual({ connections: 2, bytes_up: 10, bytes_down: 20, bytes: 30 });
    const refused = (await request(t.app, 'GET', `/token/usage-log/${annsToken}?outcome=refused`, { token: ann.token })).json().data;
    expect(refused.records.map((r: { reason: string }) => r.reason)).toEqual(['upstream-failed']);
    // A LIKE wildcard in the target is a plain character.
    expect((await request(t.app, 'GET', `/token/usage-log/${annsToken}?target=%25`, { token: ann.token })).json().data.total).toBe(0);
    const wide = (await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-04-08&to=2026-04-10`, { token: ann.token })).json().data;
    expect(wide.totals.bytes).toBe(10_100);

    const csv = await request(t.app, 'GET', `/token/usage-log/${annsToken}/export?target=cdn`, { token: ann.token });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toBe(
      'started_at,ended_at,protocol,source_ip,target_host,target_port,bytes_up,bytes_down,outcome,reason\r\n' +
        '2026-04-09T10:59:59.000Z,2026-04-09T11:00:00.000Z,connect,203.0.113.7,cdn.other.net,443,30,40,closed,\r\n',
    );
  });

  it("answers 404 for another user's proxy and refuses bad windows in the caller's language", async () => {
    expect((await request(t.app, 'GET', `/token/usage-log/${bensToken}`, { token: ann.token })).statusCode).toBe(404);
    expect((await request(t.app, 'GET', `/token/usage-log/${bensToken}/export`, { token: ann.token })).statusCode).toBe(404);
    const order = await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-04-09&to=2026-04-08`, { token: ann.token, lang: 'zh' });
    expect(order.statusCode).toBe(400);
    expect(JSON.stringify(order.json().data.issues)).toContain('开始时间不能晚于结束时间');
    const long = await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-01-01&to=2026-04-08`, { token: ann.token, lang: 'en' });
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json().data.issues)).toContain('at most 31 days');
    const outcome = await request(t.app, 'GET', `/token/usage-log/${annsToken}?outcome=lost`, { token: ann.token });
    expect(outcome.statusCode).toBe(400);
    const retention = await request(t.app, 'PUT', '/user/usage-log/settings', { token: ann.token, body: { enabled: true, retention_days: 0 } });
    expect(retention.statusCode).toBe(400);
    expect((await request(t.app, 'GET', '/user/usage-log/settings', { token: ann.token })).json().data).toEqual({ enabled: false, retention_days: 7 });
  });

  it("retention drops the days older than each owner's retention, on the injected clock", async () => {
    const on = await request(t.app, 'PUT', '/user/usage-log/settings', { token: ann.token, body: { enabled: true, retention_days: 1 } });
    expect(on.json().data).toEqual({ enabled: true, retention_days: 1 });
    await request(t.app, 'PUT', '/user/usage-log/settings', { token: ben.token, body: { enabled: true, retention_days: 30 } });
    await addRow({ tokenId: bensToken, userId: ben.userId, endedAt: '2026-03-20T10:00:00.000Z' });
    const job = createUsageLogRetentionJob(t.deps);

    // 2026-04-10, retention 1 day: the 9th is kept, the 8th goes; Ben keeps 30 days.
    expect(await days(annsToken)).toEqual(['2026-04-08', '2026-04-09', '2026-04-09', '2026-04-09']);
    expect(await job.runOnce()).toBe(1);
    expect(await days(annsToken)).toEqual(['2026-04-09', '2026-04-09', '2026-04-09']);
    expect(await days(bensToken)).toEqual(['2026-03-20', '2026-04-09']);
    expect(await job.runOnce()).toBe(0);

    // A day later the 9th ages out as a whole.
    clock.set(new Date('2026-04-11T00:30:00Z'));
    await job.runOnce();
    expect(await days(annsToken)).toEqual([]);
    expect(await days(bensToken)).toEqual(['2026-03-20', '2026-04-09']);
    clock.set(new Date('2026-04-20T00:30:00Z'));
    await job.runOnce();
    expect(await days(bensToken)).toEqual(['2026-04-09']);
  });
});
