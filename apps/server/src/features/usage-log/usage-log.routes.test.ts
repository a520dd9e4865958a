import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageLogEntries } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { buyOk, createUser, request, seedProxyStartup, signIn, type TTestUser } from '../proxies/proxies-test-kit';
import { createUsageLogPartitionsJob, createUsageLogRetentionJob } from './usage-log.jobs';
import { listUsageLogPartitionDays, nextDay } from './usage-log.repository';

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
    /** Of up + down, the bytes not charged. */
    uncharged?: number;
    /** The owner's retention when the row is written (its expiry day is the day plus this). */
    retention?: number;
    expiresOn?: string;
  }) {
    const ended = new Date(values.endedAt);
    const day = values.endedAt.slice(0, 10);
    await t.db.db.insert(usageLogEntries).values({
      userId: values.userId,
      tokenId: values.tokenId,
      day,
      expiresOn: values.expiresOn ?? nextDay(day, values.retention ?? 7),
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
      unchargedBytes: values.uncharged ?? 0,
    });
  }

  const days = async (tokenId: number) =>
    (
      await t.db.db
        .select({ day: usageLogEntries.day })
        .from(usageLogEntries)
        .where(eq(usageLogEntries.tokenId, tokenId))
    )
      .map((r) => r.day)
      .sort();
  // Which partition holds each row of a proxy: "day -> table", sorted.
  const placement = async (tokenId: number) =>
    (
      (await t.db.db.execute(
        sql`SELECT day::text || ' -> ' || tableoid::regclass::text AS at FROM usage_log_entries WHERE token_id = ${tokenId} ORDER BY 1`,
      )) as unknown as { rows: { at: string }[] }
    ).rows.map((r) => r.at);
  const tableExists = async (name: string) =>
    (
      (await t.db.db.execute(sql`SELECT to_regclass(${name}) IS NOT NULL AS ok`)) as unknown as {
        rows: { ok: boolean }[];
      }
    ).rows[0].ok;

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
    await addRow({
      tokenId: annsToken,
      userId: ann.userId,
      endedAt: '2026-04-09T10:00:00.000Z',
      host: 'api.example.com',
      up: 10,
      down: 20,
    });
    await addRow({
      tokenId: annsToken,
      userId: ann.userId,
      endedAt: '2026-04-09T11:00:00.000Z',
      host: 'cdn.other.net',
      up: 30,
      down: 40,
      // The tunnel dropped before the target's first byte: metered, not charged.
      uncharged: 70,
    });
    await addRow({
      tokenId: annsToken,
      userId: ann.userId,
      endedAt: '2026-04-09T12:00:00.000Z',
      host: 'api.example.com',
      outcome: 'refused',
      up: 0,
      down: 0,
    });
    // Outside the default window (the last 24 hours).
    await addRow({ tokenId: annsToken, userId: ann.userId, endedAt: '2026-04-08T12:00:00.000Z', up: 5000, down: 5000 });
    await addRow({ tokenId: bensToken, userId: ben.userId, endedAt: '2026-04-09T10:00:00.000Z' });

    const all = (await request(t.app, 'GET', `/token/usage-log/${annsToken}?page_size=2`, { token: ann.token })).json()
      .data;
    expect(all.total).toBe(3);
    expect(all.records).toHaveLength(2);
    expect(all.records[0].ended_at).toBe('2026-04-09T12:00:00.000Z');
    expect(all.totals).toEqual({ connections: 3, bytes_up: 40, bytes_down: 60, bytes: 100, uncharged_bytes: 70 });
    expect(all.records.map((r: { uncharged_bytes: number }) => r.uncharged_bytes)).toEqual([0, 70]);
    expect(all.from).toBe('2026-04-09T02:00:00.000Z');

    const byTarget = (
      await request(t.app, 'GET', `/token/usage-log/${annsToken}?target=example.COM`, { token: ann.token })
    ).json().data;
    expect(byTarget.totals).toEqual({ connections: 2, bytes_up: 10, bytes_down: 20, bytes: 30, uncharged_bytes: 0 });
    const refused = (
      await request(t.app, 'GET', `/token/usage-log/${annsToken}?outcome=refused`, { token: ann.token })
    ).json().data;
    expect(refused.records.map((r: { reason: string }) => r.reason)).toEqual(['upstream-failed']);
    // A LIKE wildcard in the target is a plain character.
    expect(
      (await request(t.app, 'GET', `/token/usage-log/${annsToken}?target=%25`, { token: ann.token })).json().data.total,
    ).toBe(0);
    const wide = (
      await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-04-08&to=2026-04-10`, { token: ann.token })
    ).json().data;
    expect(wide.totals.bytes).toBe(10_100);

    const csv = await request(t.app, 'GET', `/token/usage-log/${annsToken}/export?target=cdn`, { token: ann.token });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toBe(
      'started_at,ended_at,protocol,source_ip,target_host,target_port,bytes_up,bytes_down,outcome,reason,uncharged_bytes\r\n' +
        '2026-04-09T10:59:59.000Z,2026-04-09T11:00:00.000Z,connect,203.0.113.7,cdn.other.net,443,30,40,closed,,70\r\n',
    );
  });

  it("answers 404 for another user's proxy and refuses bad windows in the caller's language", async () => {
    expect((await request(t.app, 'GET', `/token/usage-log/${bensToken}`, { token: ann.token })).statusCode).toBe(404);
    expect((await request(t.app, 'GET', `/token/usage-log/${bensToken}/export`, { token: ann.token })).statusCode).toBe(
      404,
    );
    const order = await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-04-09&to=2026-04-08`, {
      token: ann.token,
      lang: 'zh',
    });
    expect(order.statusCode).toBe(400);
    expect(JSON.stringify(order.json().data.issues)).toContain('开始时间不能晚于结束时间');
    const long = await request(t.app, 'GET', `/token/usage-log/${annsToken}?from=2026-01-01&to=2026-04-08`, {
      token: ann.token,
      lang: 'en',
    });
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json().data.issues)).toContain('at most 31 days');
    const outcome = await request(t.app, 'GET', `/token/usage-log/${annsToken}?outcome=lost`, { token: ann.token });
    expect(outcome.statusCode).toBe(400);
    const retention = await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 0 },
    });
    expect(retention.statusCode).toBe(400);
    expect((await request(t.app, 'GET', '/user/usage-log/settings', { token: ann.token })).json().data).toEqual({
      enabled: false,
      retention_days: 7,
      domain_usage_enabled: true,
    });
  });

  it('keeps a partition per expiry day ahead, drops a whole partition once its day has passed, and trims a shortened retention', async () => {
    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 7 },
    });
    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ben.token,
      body: { enabled: true, retention_days: 30 },
    });
    await addRow({ tokenId: bensToken, userId: ben.userId, endedAt: '2026-03-20T10:00:00.000Z', retention: 30 });
    const partitions = createUsageLogPartitionsJob(t.deps);
    const retention = createUsageLogRetentionJob(t.deps);

    // Before the job's first pass every row waits in the default partition; the pass makes today's partition and
    // the next 32 days' (the longest retention plus two) and moves each row into its own.
    expect(await listUsageLogPartitionDays(t.db.db)).toEqual([]);
    expect(await placement(annsToken)).toEqual([
      '2026-04-08 -> usage_log_entries_default',
      '2026-04-09 -> usage_log_entries_default',
      '2026-04-09 -> usage_log_entries_default',
      '2026-04-09 -> usage_log_entries_default',
    ]);
    expect(await partitions.runOnce()).toBe(33);
    expect(await partitions.runOnce()).toBe(0);
    const ready = await listUsageLogPartitionDays(t.db.db);
    expect([ready[0], ready.at(-1), ready.length]).toEqual(['2026-04-10', '2026-05-12', 33]);
    expect(await placement(annsToken)).toEqual([
      '2026-04-08 -> usage_log_entries_p20260415',
      '2026-04-09 -> usage_log_entries_p20260416',
      '2026-04-09 -> usage_log_entries_p20260416',
      '2026-04-09 -> usage_log_entries_p20260416',
    ]);
    expect(await placement(bensToken)).toEqual([
      '2026-03-20 -> usage_log_entries_p20260419',
      '2026-04-09 -> usage_log_entries_p20260416',
    ]);

    // Ann shortens her retention to 1 day: her rows older than that go (a bounded DELETE), though their partition stays.
    await request(t.app, 'PUT', '/user/usage-log/settings', {
      token: ann.token,
      body: { enabled: true, retention_days: 1 },
    });
    expect(await retention.runOnce()).toBe(1);
    expect(await days(annsToken)).toEqual(['2026-04-09', '2026-04-09', '2026-04-09']);
    expect(await retention.runOnce()).toBe(0);
    expect(await tableExists('usage_log_entries_p20260415')).toBe(true);

    // The next day: the partition of the 10th (empty) is dropped, and Ann's 9th is past her 1 day (one slice).
    clock.set(new Date('2026-04-11T00:30:00Z'));
    expect(await retention.runOnce()).toBe(2);
    expect(await days(annsToken)).toEqual([]);
    expect(await days(bensToken)).toEqual(['2026-03-20', '2026-04-09']);

    // Ben's row of the 9th was written under 7 days: kept until the 16th, its partition dropped whole on the 17th.
    clock.set(new Date('2026-04-16T23:59:00Z'));
    await retention.runOnce();
    expect(await days(bensToken)).toEqual(['2026-03-20', '2026-04-09']);
    clock.set(new Date('2026-04-17T00:00:00Z'));
    await retention.runOnce();
    expect(await days(bensToken)).toEqual(['2026-03-20']);
    expect(await tableExists('usage_log_entries_p20260416')).toBe(false);
    // His row of 20 March, written under 30 days, is kept until 19 April: on the 20th its partition goes, the later ones stay.
    clock.set(new Date('2026-04-19T23:59:00Z'));
    await retention.runOnce();
    expect(await days(bensToken)).toEqual(['2026-03-20']);
    clock.set(new Date('2026-04-20T00:00:00Z'));
    await retention.runOnce();
    expect(await days(bensToken)).toEqual([]);
    expect(await tableExists('usage_log_entries_p20260419')).toBe(false);
    expect(await tableExists('usage_log_entries_p20260512')).toBe(true);
    expect((await listUsageLogPartitionDays(t.db.db))[0]).toBe('2026-04-20');
    // Ann's shortening is over once every row written under the old retention reached its day.
    const trims = (await t.db.db.execute(
      sql`SELECT user_id::int AS id, trim_until::text AS until FROM usage_log_settings WHERE trim_until IS NOT NULL`,
    )) as unknown as {
      rows: unknown[];
    };
    expect(trims.rows).toEqual([]);
    // The partitions job keeps the window ahead moving.
    expect(await partitions.runOnce()).toBe(10);
  });

  it('takes a row whose partition is missing in the default partition, moves it in when made, and deletes it there once past', async () => {
    clock.set(new Date('2026-04-20T12:00:00Z'));
    // Beyond the window made ahead (a clock far ahead): the write still succeeds.
    await addRow({
      tokenId: bensToken,
      userId: ben.userId,
      endedAt: '2026-04-20T11:00:00.000Z',
      expiresOn: '2026-06-01',
    });
    // Past already (an imported or late row): the retention job deletes it from the default partition.
    await addRow({
      tokenId: bensToken,
      userId: ben.userId,
      endedAt: '2026-04-01T11:00:00.000Z',
      expiresOn: '2026-04-02',
    });
    expect(await placement(bensToken)).toEqual([
      '2026-04-01 -> usage_log_entries_default',
      '2026-04-20 -> usage_log_entries_default',
    ]);
    expect(await createUsageLogRetentionJob(t.deps).runOnce()).toBe(1);
    clock.set(new Date('2026-05-01T00:00:00Z'));
    await createUsageLogPartitionsJob(t.deps).runOnce();
    expect(await placement(bensToken)).toEqual(['2026-04-20 -> usage_log_entries_p20260601']);
    expect(await tableExists('usage_log_entries_default')).toBe(true);
  });
});
