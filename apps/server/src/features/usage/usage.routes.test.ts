import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenUsage } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { createLedgerService } from '../ledger/ledger.service';
import {
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from '../proxies/proxies-test-kit';
import { bucketStart } from './usage.service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('traffic and spend series', () => {
  // 02:00 UTC is 10:00 in China (the default zone of the series).
  const clock = createFakeClock(new Date('2026-04-10T02:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let staticIp: number;
  let variableTraffic: number;
  let bensToken: number;

  async function addUsage(tokenId: number, userId: number, bucket: string, bytes: number, uncharged = 0) {
    await t.db.db
      .insert(tokenUsage)
      .values({ tokenId, userId, bucket: new Date(bucket), bytes, unchargedBytes: uncharged });
  }

  async function series(query: string, token = ann.token, lang = 'en') {
    const res = await request(t.app, 'GET', `/token/session/traffic?${query}`, { token, lang });
    return { status: res.statusCode, body: res.json() };
  }

  beforeAll(async () => {
    clock.set(new Date('2026-04-01T02:00:00Z'));
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    const base = { network: 'HTTP', country_id: 'us', quantity: 1 };
    staticIp = (await buyOk(t.app, ann.token, '/token/static/ip', { ...base, days: 5 })).tokens[0].token_id;
    variableTraffic = (await buyOk(t.app, ann.token, '/token/variable/traffic', { ...base, traffic_gb: 0.1 })).tokens[0]
      .token_id;
    bensToken = (await buyOk(t.app, ben.token, '/token/static/ip', { ...base, days: 1 })).tokens[0].token_id;

    // Usage on 2026-04-09 and 04-10 (UTC hours); 17:00 UTC on the 9th is already the 10th in China.
    await addUsage(staticIp, ann.userId, '2026-04-09T03:00:00Z', 1000);
    await addUsage(staticIp, ann.userId, '2026-04-09T17:00:00Z', 2000);
    await addUsage(staticIp, ann.userId, '2026-04-10T01:00:00Z', 30);
    // Bytes lost before the target answered are metered beside the charged ones, in the same hour rows.
    await addUsage(variableTraffic, ann.userId, '2026-04-09T03:00:00Z', 400, 60);
    await addUsage(variableTraffic, ann.userId, '2026-04-10T01:00:00Z', 5, 7);
    // Outside every range asked below.
    await addUsage(staticIp, ann.userId, '2026-03-01T00:00:00Z', 999_999, 888);
    await addUsage(bensToken, ben.userId, '2026-04-09T03:00:00Z', 77_777, 66_666);
    clock.set(new Date('2026-04-10T02:00:00Z'));
    // Sessions last 2.5 days of (fake) time.
    await signIn(t.app, ann, ben);
  });
  afterAll(async () => {
    await t.close();
  });

  const sum = (points: { bytes: number }[]) => points.reduce((s, p) => s + p.bytes, 0);

  it("sums all the user's tokens by local day (China by default), zero-filled, buckets adding up to the total", async () => {
    const { body } = await series('from=2026-04-08T00:00:00Z');
    expect(body.code, JSON.stringify(body)).toBe(0);
    const data = body.data;
    expect(data.granularity).toBe('day');
    // Local days 04-08 .. 04-10 start at 16:00 UTC of the day before.
    expect(data.points).toEqual([
      { at: '2026-04-07T16:00:00.000Z', bytes: 0, uncharged_bytes: 0 },
      { at: '2026-04-08T16:00:00.000Z', bytes: 1400, uncharged_bytes: 60 },
      { at: '2026-04-09T16:00:00.000Z', bytes: 2035, uncharged_bytes: 7 },
    ]);
    expect(data.total_bytes).toBe(3435);
    expect(data.total_uncharged_bytes).toBe(67);
    expect(sum(data.points)).toBe(data.total_bytes);
  });

  it('uses the asked time zone for day buckets', async () => {
    const { body } = await series('from=2026-04-09T00:00:00Z&tz_offset_minutes=0');
    expect(body.data.points).toEqual([
      { at: '2026-04-09T00:00:00.000Z', bytes: 3400, uncharged_bytes: 60 },
      { at: '2026-04-10T00:00:00.000Z', bytes: 35, uncharged_bytes: 7 },
    ]);
  });

  it('answers hour buckets for one token and the tokens of a list', async () => {
    const one = await series(`token_id=${staticIp}&granularity=hour&from=2026-04-09T00:00:00Z`);
    expect(one.body.data.points).toHaveLength(27);
    expect(one.body.data.points.find((p: { at: string }) => p.at === '2026-04-09T17:00:00.000Z').bytes).toBe(2000);
    expect(one.body.data.total_bytes).toBe(3030);
    expect(sum(one.body.data.points)).toBe(3030);
    expect(one.body.data.total_uncharged_bytes).toBe(0);
    const list = await series('list=variable/traffic&granularity=hour&from=2026-04-09T00:00:00Z');
    expect(list.body.data.total_bytes).toBe(405);
    expect(list.body.data.total_uncharged_bytes).toBe(67);
    const hours = list.body.data.points as { at: string; uncharged_bytes: number }[];
    expect(hours.filter((p) => p.uncharged_bytes > 0)).toEqual([
      { at: '2026-04-09T03:00:00.000Z', bytes: 400, uncharged_bytes: 60 },
      { at: '2026-04-10T01:00:00.000Z', bytes: 5, uncharged_bytes: 7 },
    ]);
    const none = await series('list=idc/static&from=2026-04-09T00:00:00Z');
    expect(none.body.data.total_bytes).toBe(0);
  });

  it("keeps users apart: another user's token is not found, and their bytes never count", async () => {
    const foreign = await series(`token_id=${bensToken}`);
    expect(foreign.status).toBe(404);
    const bens = await series('from=2026-04-09T00:00:00Z', ben.token);
    expect(bens.body.data.total_bytes).toBe(77_777);
    expect(bens.body.data.total_uncharged_bytes).toBe(66_666);
    expect((await request(t.app, 'GET', '/token/session/traffic')).statusCode).toBe(401);
  });

  it('refuses bad input with translated messages', async () => {
    const week = await series('granularity=week', ann.token, 'zh');
    expect(week.status).toBe(400);
    expect(week.body.data.issues).toEqual([{ path: 'granularity', message: '取值无效' }]);
    const order = await series('from=2026-04-10T00:00:00Z&to=2026-04-01T00:00:00Z');
    expect(order.status).toBe(400);
    expect(order.body.data.issues[0].message).toBe('The start must not be after the end');
    const long = await series('granularity=hour&from=2025-01-01T00:00:00Z');
    expect(long.status).toBe(400);
    expect(long.body.data.issues[0].message).toBe('The time range is too long; narrow it or use days');
    const tz = await series('tz_offset_minutes=9999');
    expect(tz.body.data.issues[0].message).toBe('The time zone offset must be -720 to 840 minutes');
    expect((await series('token_id=abc')).status).toBe(400);
  });

  it('aligns buckets to UTC hours and to local midnights', () => {
    const t0 = Date.parse('2026-04-09T17:30:00Z');
    expect(new Date(bucketStart(t0, HOUR, 480)).toISOString()).toBe('2026-04-09T17:00:00.000Z');
    expect(new Date(bucketStart(t0, DAY, 480)).toISOString()).toBe('2026-04-09T16:00:00.000Z');
    expect(new Date(bucketStart(t0, DAY, -300)).toISOString()).toBe('2026-04-09T05:00:00.000Z');
  });

  describe('spend statistics', () => {
    async function amount(query: string, token = ann.token, lang = 'en') {
      const res = await request(t.app, 'GET', `/user/statistics/amount?${query}`, { token, lang });
      return { status: res.statusCode, body: res.json() };
    }

    beforeAll(async () => {
      const ledger = createLedgerService(t.deps);
      // Two days ago (local): a recharge of 100 yuan and a 2 yuan renewal-like debit.
      clock.set(new Date('2026-04-08T03:00:00Z'));
      await ledger.credit({ userId: ann.userId, amountFen: 10_000, reason: 'recharge' });
      await ledger.debit({ userId: ann.userId, amountFen: 200, reason: 'renew' });
      // Yesterday 23:30 local = 15:30 UTC: a rebate credit (not a recharge) and a consumed freeze (spend).
      clock.set(new Date('2026-04-09T15:30:00Z'));
      await creditFen(t.deps, ann.userId, 500);
      await ledger.freeze({ userId: ann.userId, amountFen: 1_234, reason: 'supply' });
      await ledger.consume({ userId: ann.userId, amountFen: 1_234, reason: 'supply' });
      // 16:30 UTC is already today in China.
      clock.set(new Date('2026-04-09T16:30:00Z'));
      await ledger.debit({ userId: ann.userId, amountFen: 55, reason: 'purchase' });
      clock.set(new Date('2026-04-10T02:00:00Z'));
    });

    it('sums spend (debits and consumes) and recharge (paid top-ups only, not the trial) per local day', async () => {
      const { body } = await amount('days=7');
      expect(body.code, JSON.stringify(body)).toBe(0);
      expect(body.data.points).toHaveLength(7);
      expect(body.data.points.map((p: { date: string }) => p.date)).toEqual([
        '2026-04-04',
        '2026-04-05',
        '2026-04-06',
        '2026-04-07',
        '2026-04-08',
        '2026-04-09',
        '2026-04-10',
      ]);
      expect(body.data.points.slice(4)).toEqual([
        { date: '2026-04-08', spend: 2, recharge: 100 },
        { date: '2026-04-09', spend: 12.34, recharge: 0 },
        { date: '2026-04-10', spend: 0.55, recharge: 0 },
      ]);
      expect(body.data.total_spend).toBe(14.89);
      expect(body.data.total_recharge).toBe(100);
    });

    it('counts the purchases of the period and the day boundary of another zone', async () => {
      // The purchases on 2026-04-01 (static IP 5 days = 10 yuan, 0.1 GB = 4 yuan) fall in the last 30 days.
      const month = await amount('days=30');
      expect(month.body.data.points).toHaveLength(30);
      expect(month.body.data.total_spend).toBe(28.89);
      const utc = await amount('days=7&tz_offset_minutes=0');
      const last = utc.body.data.points.slice(-2);
      expect(last).toEqual([
        { date: '2026-04-09', spend: 12.89, recharge: 0 },
        { date: '2026-04-10', spend: 0, recharge: 0 },
      ]);
    });

    it('keeps users apart, needs a session and checks days', async () => {
      const bens = await amount('days=90', ben.token);
      expect(bens.body.data.total_recharge).toBe(0);
      expect(bens.body.data.total_spend).toBe(2);
      expect((await request(t.app, 'GET', '/user/statistics/amount')).statusCode).toBe(401);
      const bad = await amount('days=14', ann.token, 'zh');
      expect(bad.status).toBe(400);
      expect(bad.body.data.issues).toEqual([{ path: 'days', message: '统计天数只能为 7、30 或 90' }]);
      const badEn = await amount('days=abc');
      expect(badEn.body.data.issues[0].message).toBe('Days must be 7, 30 or 90');
    });
  });
});
