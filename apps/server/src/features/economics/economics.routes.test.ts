import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, carrierUsage, exitNodes, poolReconciliation, pools, proxyOrders, proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

const G = 1024 ** 3;

// The operator's economics on hand-computed fixtures (docs/economics.md): every figure below is worked out in the
// comments from the rows the test writes, so a wrong rounding, price per byte or exit day changes a number.
describe('economics of pools and exits', () => {
  const mailer = createMemoryMailer();
  const clock = createFakeClock(new Date('2026-05-04T12:00:00Z'));
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  const ids = { poolA: 0, poolB: 0, poolC: 0, exitX: 0 };

  const get = (path: string, options: { token?: string; lang?: string } = {}) =>
    request(t.app, 'GET', path, { token: options.token ?? oper.token, lang: options.lang ?? 'en' });
  const post = (path: string, body: object, options: { token?: string; lang?: string } = {}) =>
    request(t.app, 'POST', path, { token: options.token ?? oper.token, body, lang: options.lang ?? 'en' });
  const report = async (query: string) => {
    const res = await get(`/admin/economics?${query}`);
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as {
      rows: Record<string, unknown>[];
      totals: Record<string, number | boolean>;
    };
  };
  const range = 'from=2026-05-01&to=2026-05-03';

  let tokenSeq = 0;
  async function token(fields: Partial<typeof proxyTokens.$inferInsert>): Promise<number> {
    tokenSeq += 1;
    const [row] = await t.db.db
      .insert(proxyTokens)
      .values({
        userId: ann.userId,
        product: 'dynamic',
        category: 'isp',
        billing: 'traffic',
        network: 'HTTP',
        country: 'us',
        username: `econ${tokenSeq}`,
        password: 'p',
        expiresAt: new Date('2026-06-01T00:00:00Z'),
        createdAt: new Date('2026-04-01T00:00:00Z'),
        ...fields,
      })
      .returning({ id: proxyTokens.id });
    return row.id;
  }
  async function order(quantity: number, amount: string, costFen: number, billing: 'traffic' | 'ip' = 'traffic') {
    const [row] = await t.db.db
      .insert(proxyOrders)
      .values({
        userId: ann.userId,
        action: 'purchase',
        product: 'dynamic',
        category: 'isp',
        billing,
        quantity,
        amount,
        costFen,
      })
      .returning({ id: proxyOrders.id });
    return row.id;
  }
  async function pool(name: string, costPerGbFen: number) {
    const [row] = await t.db.db
      .insert(pools)
      .values({
        name,
        kind: 'residential',
        protocol: 'http-connect',
        endpoints: [{ host: 'pool.example', port: 7777 }],
        username: 'u',
        password: '',
        usernameTemplate: '{user}-{country}',
        costPerGbFen,
      })
      .returning({ id: pools.id });
    return row.id;
  }
  const carried = (
    day: string,
    tokenId: number,
    kind: 'pool' | 'exit' | 'none',
    carrierId: number,
    country: string,
    bytes: number,
  ) =>
    t.db.db.insert(carrierUsage).values({ day, tokenId, carrierKind: kind, carrierId, country, bytes, connections: 1 });

  beforeAll(async () => {
    t = await createTestApp({ mailer, clock });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    ids.poolA = await pool('Pool A', 1000); // 10 yuan per GB
    ids.poolB = await pool('Pool B', 100_000); // 1000 yuan per GB: dearer than it sells
    ids.poolC = await pool('Pool C', 1024); // 1024 fen per GB: a byte costs 1/2^20 fen
    const [x] = await t.db.db
      .insert(exitNodes)
      .values({
        kind: 'residential',
        egress: 'http',
        host: '198.51.100.7',
        port: 8000,
        country: 'jp',
        costPerDayFen: 300,
      })
      .returning({ id: exitNodes.id });
    ids.exitX = x.id;

    // O1: 2 proxies of 1 GB for 40 yuan: 2000 fen per GB carried.
    const o1 = await order(2, '1', 4000);
    const t1 = await token({ orderId: o1, trafficLimitBytes: G });
    const t2 = await token({ orderId: o1, trafficLimitBytes: G });
    // 05-01 T1 via A (us), G/2: cost 1000/2 = 500, revenue 2000/2 = 1000.
    await carried('2026-05-01', t1, 'pool', ids.poolA, 'us', G / 2);
    // 05-02 T1 via B (de), G/4: cost 100000/4 = 25000, revenue 2000/4 = 500 (margin -24500).
    await carried('2026-05-02', t1, 'pool', ids.poolB, 'de', G / 4);
    // 05-02 T2 via C (us), 2^19 bytes: cost 1024 x 2^19 / 2^30 = 0.5 -> 1 (half up; half-even would give 0);
    // revenue 4000 x 2^19 / (2 x 2^30) = 0.9765625 -> 1.
    await carried('2026-05-02', t2, 'pool', ids.poolC, 'us', 2 ** 19);
    // 05-03 T2 refused before any dial (none), 1000 bytes: no cost, revenue 4000 x 1000 / 2^31 = 0.0019 -> 0.
    await carried('2026-05-03', t2, 'none', 0, 'us', 1000);

    // T3: a static IP proxy on exit X (300 fen a day), 1000 fen for 30 days, held from 04-20: days 11, 12, 13 of
    // its period fall on 05-01..05-03: floor(12000/30)-floor(11000/30) = 34, then 33 and 33 (a period sums to 1000).
    const o3 = await order(1, '30', 1000, 'ip');
    const t3 = await token({
      orderId: o3,
      product: 'static',
      billing: 'ip',
      country: 'jp',
      exitNodeId: ids.exitX,
      periodDays: 30,
      periodPriceFen: 1000,
      createdAt: new Date('2026-04-20T10:00:00Z'),
      expiresAt: new Date('2026-05-20T10:00:00Z'),
    });
    // 05-01 T3 via X, 1000 bytes; X costs 300 on each of the 3 days (carried on the first, held on all).
    await carried('2026-05-01', t3, 'exit', ids.exitX, 'jp', 1000);

    // O5: 1 proxy of 2 GB for 50 yuan, expired 05-02 having used G/2: 1.5 GB sold, not carried = 3750 fen.
    const o5 = await order(1, '2', 5000);
    await token({
      orderId: o5,
      country: 'gb',
      trafficLimitBytes: 2 * G,
      trafficUsedBytes: G / 2,
      expiresAt: new Date('2026-05-02T08:00:00Z'),
    });
    // Not in the range: one expiring later today (not yet expired: never counted), one expired before it (04-30).
    await token({ orderId: o5, trafficLimitBytes: 2 * G, expiresAt: new Date('2026-05-04T20:00:00Z') });
    await token({ orderId: o5, trafficLimitBytes: 2 * G, expiresAt: new Date('2026-04-30T00:00:00Z') });

    // Pool A outside the range, for the reconciliation: 1,000,000 bytes on 04-10 and on 04-11.
    await carried('2026-04-10', t1, 'pool', ids.poolA, 'us', 1_000_000);
    await carried('2026-04-11', t1, 'pool', ids.poolA, 'us', 1_000_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sums cost, revenue and margin per carrier, flags the negative ones, and puts unused allowance on its own line', async () => {
    const data = await report(`${range}&group_by=carrier`);
    const pick = (r: Record<string, unknown>) => [
      r.line,
      r.carrier_kind,
      r.carrier_name,
      r.bytes,
      r.cost_fen,
      r.revenue_fen,
      r.margin_fen,
      r.is_negative,
    ];
    expect(data.rows.map(pick)).toEqual([
      ['carried', 'pool', 'Pool A', G / 2, 500, 1000, 500, false],
      ['carried', 'pool', 'Pool B', G / 4, 25_000, 500, -24_500, true],
      ['carried', 'pool', 'Pool C', 2 ** 19, 1, 1, 0, false],
      ['carried', 'exit', '198.51.100.7:8000', 1000, 900, 100, -800, true],
      ['carried', 'none', null, 1000, 0, 0, 0, false],
      ['sold_not_carried', null, null, 1.5 * G, 0, 3750, 3750, false],
    ]);
    expect(data.totals).toEqual({
      bytes: G / 2 + G / 4 + 2 ** 19 + 2000 + 1.5 * G,
      carried_bytes: G / 2 + G / 4 + 2 ** 19 + 2000,
      unused_bytes: 1.5 * G,
      uncharged_bytes: 0,
      cost_fen: 26_401,
      revenue_fen: 5351,
      carried_revenue_fen: 1601,
      sold_not_carried_fen: 3750,
      margin_fen: -21_050,
      is_negative: true,
    });
  });

  it('groups by day, product and area with the same totals', async () => {
    const byDay = await report(`${range}&group_by=day`);
    expect(byDay.rows.map((r) => [r.line, r.day, r.bytes, r.cost_fen, r.revenue_fen])).toEqual([
      // A's G/2 and X's 1000 bytes; X's day 300 + A's 500; A's 1000 + T3's first day 34.
      ['carried', '2026-05-01', G / 2 + 1000, 800, 1034],
      ['carried', '2026-05-02', G / 4 + 2 ** 19, 25_301, 534],
      ['carried', '2026-05-03', 1000, 300, 33],
      ['sold_not_carried', '2026-05-02', 1.5 * G, 0, 3750],
    ]);
    const byProduct = await report(`${range}&group_by=product`);
    expect(byProduct.rows.map((r) => [r.line, r.category, r.product, r.billing, r.cost_fen, r.revenue_fen])).toEqual([
      ['carried', 'isp', 'dynamic', 'traffic', 25_501, 1501],
      ['carried', 'isp', 'static', 'ip', 900, 100],
      ['sold_not_carried', 'isp', 'dynamic', 'traffic', 0, 3750],
    ]);
    const byArea = await report(`${range}&group_by=area`);
    expect(byArea.rows.map((r) => [r.line, r.country, r.bytes, r.cost_fen, r.revenue_fen])).toEqual([
      ['carried', 'de', G / 4, 25_000, 500],
      ['carried', 'jp', 1000, 900, 100],
      ['carried', 'us', G / 2 + 2 ** 19 + 1000, 501, 1001],
      ['sold_not_carried', 'gb', 1.5 * G, 0, 3750],
    ]);
    for (const data of [byDay, byProduct, byArea]) expect(data.totals.margin_fen).toBe(-21_050);
  });

  it('defaults to the last 30 days and refuses a reversed or too long range in both languages', async () => {
    const res = await get('/admin/economics');
    expect(res.json().data).toMatchObject({ from: '2026-04-05', to: '2026-05-04', group_by: 'day' });
    const reversed = await get('/admin/economics?from=2026-05-03&to=2026-05-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 3301, data: { error: 'ECONOMICS_RANGE_INVALID' } });
    const long = await get('/admin/economics?from=2025-01-01&to=2026-01-02', { lang: 'zh' });
    expect(long.json().code).toBe(3301);
    expect(long.json().msg).toContain('366 天');
    const bad = await get('/admin/economics?from=2026-02-30');
    expect(bad.statusCode).toBe(400);
  });

  it('gives the margin of today and of the last 30 days', async () => {
    const res = await get('/admin/economics/summary');
    expect(res.json().code, res.body).toBe(0);
    // Today (05-04): only T3's day 14 (floor(15000/30)-floor(14000/30) = 34) and X's day (300).
    expect(res.json().data.today).toEqual({
      from: '2026-05-04',
      to: '2026-05-04',
      cost_fen: 300,
      revenue_fen: 34,
      margin_fen: -266,
      is_negative: true,
    });
    // 04-05..05-04: everything of 05-01..05-03; today; T3 held 04-20..04-30 (11 days: floor(11000/30) = 366 fen, X 3300 fen); the
    // reconciliation's 2 x 1,000,000 bytes on A (cost 1 each, revenue 2 each); the proxy expired 04-30 with its
    // 2 GB unused (5000 fen sold, not carried).
    const month = await report('from=2026-04-05&to=2026-05-04');
    expect(res.json().data.last_30_days).toMatchObject({
      from: '2026-04-05',
      cost_fen: month.totals.cost_fen,
      revenue_fen: month.totals.revenue_fen,
      margin_fen: month.totals.margin_fen,
    });
    expect(month.totals.cost_fen).toBe(26_401 + 300 + 3300 + 2);
    expect(month.totals.revenue_fen).toBe(5351 + 34 + 366 + 4 + 5000);
  });

  it('exports the report as CSV with the same figures, money in yuan', async () => {
    const data = await report(`${range}&group_by=carrier`);
    const res = await get(`/admin/economics/export?${range}&group_by=carrier`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'line,day,carrier_kind,carrier_id,carrier,category,product,billing,area,bytes,uncharged_bytes,cost_yuan,revenue_yuan,margin_yuan,negative',
    );
    const fen = (yuan: string) => Math.round(Number(yuan) * 100);
    const body = lines.slice(1, -1).map((l) => l.split(','));
    expect(body).toHaveLength(data.rows.length);
    body.forEach((cells, i) => {
      const row = data.rows[i];
      expect(cells[0]).toBe(row.line);
      expect(cells[4]).toBe(row.carrier_name ?? '');
      expect(Number(cells[9])).toBe(row.bytes);
      expect(Number(cells[10])).toBe(row.uncharged_bytes);
      expect([fen(cells[11]), fen(cells[12]), fen(cells[13])]).toEqual([row.cost_fen, row.revenue_fen, row.margin_fen]);
      expect(cells[14]).toBe(row.is_negative ? '1' : '0');
    });
    expect(body[1].slice(11, 14)).toEqual(['250.00', '5.00', '-245.00']);
    expect(lines.at(-1)).toBe(`total,,,,,,,,,${data.totals.bytes},0,264.01,53.51,-210.50,1`);
    const zh = await get(`/admin/economics/export?${range}`, { lang: 'zh' });
    expect(zh.body).toContain('毛利(元)');
  });

  it('sets our bytes of a pool beside the provider report and flags a difference above the threshold', async () => {
    const csv = 'day,bytes,unit\n2026-04-10,1020000\n2026-04-11,1020001,B\n2026-05-01,0.5,GB\n';
    const imported = await post(`/admin/economics/pools/${ids.poolA}/reconciliation`, { csv });
    expect(imported.json(), imported.body).toMatchObject({
      code: 0,
      data: { pool_id: ids.poolA, days: 3, from: '2026-04-10', to: '2026-05-01' },
    });
    const res = await get(`/admin/economics/pools/${ids.poolA}/reconciliation?from=2026-04-10&to=2026-04-12`);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data.days).toEqual([
      // +2 % exactly: not above the default 2 %.
      {
        day: '2026-04-10',
        our_bytes: 1_000_000,
        provider_bytes: 1_020_000,
        difference_bytes: 20_000,
        difference_bp: 200,
        is_flagged: false,
      },
      {
        day: '2026-04-11',
        our_bytes: 1_000_000,
        provider_bytes: 1_020_001,
        difference_bytes: 20_001,
        difference_bp: 200,
        is_flagged: true,
      },
      {
        day: '2026-04-12',
        our_bytes: 0,
        provider_bytes: null,
        difference_bytes: null,
        difference_bp: null,
        is_flagged: false,
      },
    ]);
    expect(res.json().data).toMatchObject({ pool_name: 'Pool A', threshold_bp: 200 });
    const looser = await get(
      `/admin/economics/pools/${ids.poolA}/reconciliation?from=2026-04-10&to=2026-05-01&threshold_bp=300`,
    );
    const days = looser.json().data.days as { day: string; is_flagged: boolean; difference_bytes: number | null }[];
    expect(days.filter((d) => d.is_flagged)).toEqual([]);
    // 0.5 GB is G/2 bytes exactly, as we carried.
    expect(days.find((d) => d.day === '2026-05-01')?.difference_bytes).toBe(0);
    expect(looser.json().data.totals).toEqual({
      our_bytes: 2_000_000 + G / 2,
      provider_bytes: 2_040_001 + G / 2,
      flagged_days: 0,
    });

    // A re-import replaces the days it names and keeps the others; a day we did not carry is flagged.
    await post(`/admin/economics/pools/${ids.poolA}/reconciliation`, { csv: '2026-04-11,1000000\n2026-04-12,5\n' });
    const again = await get(`/admin/economics/pools/${ids.poolA}/reconciliation?from=2026-04-10&to=2026-04-12`);
    expect(
      (again.json().data.days as { provider_bytes: number | null; is_flagged: boolean }[]).map((d) => [
        d.provider_bytes,
        d.is_flagged,
      ]),
    ).toEqual([
      [1_020_000, false],
      [1_000_000, false],
      [5, true],
    ]);
    const audited = await t.db.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.route, 'adminEconomicsReconciliationImport'));
    expect(audited).toHaveLength(2);
    expect(audited[0]).toMatchObject({ result: 'ok', targetId: String(ids.poolA) });
  });

  it('refuses a provider report with bad lines, names each line in both languages, and changes nothing', async () => {
    const stored = () => t.db.db.select().from(poolReconciliation).where(eq(poolReconciliation.poolId, ids.poolB));
    await post(`/admin/economics/pools/${ids.poolB}/reconciliation`, { csv: '2026-05-02,7\n' });
    const before = await stored();
    const csv = 'day,bytes\n2026-05-01,12\n2026-13-01,5\n2026-05-02,abc\n2026-05-03,1,PB\n2026-05-01,3\n2026-05-04\n';
    const en = await post(`/admin/economics/pools/${ids.poolB}/reconciliation`, { csv });
    expect(en.statusCode).toBe(400);
    expect(en.json().code).toBe(3302);
    expect(en.json().data.issues).toEqual([
      { path: 'csv', message: 'Line 3: 2026-13-01 is not a day (YYYY-MM-DD)' },
      {
        path: 'csv',
        message: 'Line 4: abc is not a number of bytes (a whole number of at least 0 without a unit)',
      },
      { path: 'csv', message: 'Line 5: PB is not a unit (B, KB, MB, GB or TB, binary)' },
      { path: 'csv', message: 'Line 6: repeats line 2' },
      { path: 'csv', message: 'Line 7: expected day,bytes[,unit]' },
    ]);
    const zh = await post(`/admin/economics/pools/${ids.poolB}/reconciliation`, { csv }, { lang: 'zh' });
    expect(zh.json().msg).toBe('第 3 行：2026-13-01 不是日期（YYYY-MM-DD）');
    const decimalWithoutUnit = await post(`/admin/economics/pools/${ids.poolB}/reconciliation`, {
      csv: '2026-05-01,1.5\n',
    });
    expect(decimalWithoutUnit.json().code).toBe(3302);
    const empty = await post(`/admin/economics/pools/${ids.poolB}/reconciliation`, { csv: 'day,bytes\n' });
    expect(empty.json().data.issues).toEqual([{ path: 'csv', message: 'The report holds no day' }]);
    expect(await stored()).toEqual(before);
    const missing = await post('/admin/economics/pools/999999/reconciliation', { csv: '2026-05-01,1\n' });
    expect(missing.statusCode).toBe(404);
  });

  it('answers operators only: a customer gets 403 on every economics call', async () => {
    const calls = [
      get('/admin/economics', { token: ann.token }),
      get('/admin/economics/export', { token: ann.token }),
      get('/admin/economics/summary', { token: ann.token }),
      get(`/admin/economics/pools/${ids.poolA}/reconciliation`, { token: ann.token }),
      post(`/admin/economics/pools/${ids.poolA}/reconciliation`, { csv: '2026-05-01,1\n' }, { token: ann.token }),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
    const rows = await t.db.db.select().from(poolReconciliation).where(eq(poolReconciliation.day, '2026-05-01'));
    expect(rows.filter((r) => r.poolId === ids.poolA && r.providerBytes === 1)).toEqual([]);
  });
});
