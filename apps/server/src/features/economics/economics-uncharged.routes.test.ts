import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierUsage, pools, proxyOrders, proxyTokens } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

const G = 1024 ** 3;

// Uncharged bytes (docs/economics.md, "Uncharged bytes"): metered through a pool but not charged to the customer
// (lost to a failure before the target answered). The pool's provider bills them, so they cost the operator; the
// customer paid nothing for them, so they earn nothing. Figures worked out in the comments.
describe('economics of uncharged bytes', () => {
  const mailer = createMemoryMailer();
  const clock = createFakeClock(new Date('2026-05-04T12:00:00Z'));
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  let poolId = 0;
  const get = (path: string, lang = 'en') => request(t.app, 'GET', path, { token: oper.token, lang });

  beforeAll(async () => {
    t = await createTestApp({ mailer, clock });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    const [pool] = await t.db.db
      .insert(pools)
      .values({
        name: 'Pool U',
        kind: 'residential',
        protocol: 'http-connect',
        endpoints: [{ host: 'pool.example', port: 7777 }],
        username: 'u',
        password: '',
        usernameTemplate: '{user}-{country}',
        costPerGbFen: 1000, // 10 yuan per GB
      })
      .returning({ id: pools.id });
    poolId = pool.id;
    // 1 proxy of 1 GB for 20 yuan: 2000 fen per GB charged.
    const [order] = await t.db.db
      .insert(proxyOrders)
      .values({
        userId: ann.userId,
        action: 'purchase',
        product: 'dynamic',
        category: 'isp',
        billing: 'traffic',
        quantity: 1,
        amount: '1',
        costFen: 2000,
      })
      .returning({ id: proxyOrders.id });
    const [token] = await t.db.db
      .insert(proxyTokens)
      .values({
        userId: ann.userId,
        orderId: order.id,
        product: 'dynamic',
        category: 'isp',
        billing: 'traffic',
        network: 'HTTP',
        country: 'us',
        username: 'uncharged1',
        password: 'p',
        trafficLimitBytes: G,
        expiresAt: new Date('2026-06-01T00:00:00Z'),
        createdAt: new Date('2026-04-01T00:00:00Z'),
      })
      .returning({ id: proxyTokens.id });
    const row = { tokenId: token.id, carrierKind: 'pool' as const, carrierId: poolId, country: 'us', connections: 1 };
    await t.db.db.insert(carrierUsage).values([
      // 05-01: G/2 charged and G/4 uncharged: cost 1000 x 3/4 = 750, revenue 2000 x 1/2 = 1000 (not 1500).
      { ...row, day: '2026-05-01', bytes: G / 2, unchargedBytes: G / 4 },
      // 05-02: only uncharged bytes (every connection failed before the target answered): cost 250, revenue 0.
      { ...row, day: '2026-05-02', bytes: 0, unchargedBytes: G / 4 },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('costs the uncharged bytes through a pool and earns nothing for them, per row, in the totals and the CSV', async () => {
    const res = await get('/admin/economics?from=2026-05-01&to=2026-05-02&group_by=day');
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data;
    expect(
      data.rows.map((r: Record<string, unknown>) => [r.day, r.bytes, r.uncharged_bytes, r.cost_fen, r.revenue_fen]),
    ).toEqual([
      ['2026-05-01', G / 2, G / 4, 750, 1000],
      ['2026-05-02', 0, G / 4, 250, 0],
    ]);
    expect(data.rows[1]).toMatchObject({ margin_fen: -250, is_negative: true });
    expect(data.totals).toMatchObject({
      bytes: G / 2,
      carried_bytes: G / 2,
      uncharged_bytes: G / 2,
      cost_fen: 1000,
      revenue_fen: 1000,
      margin_fen: 0,
    });
    const byCarrier = (await get('/admin/economics?from=2026-05-01&to=2026-05-02&group_by=carrier')).json().data;
    expect(byCarrier.rows).toEqual([
      expect.objectContaining({ carrier_name: 'Pool U', bytes: G / 2, uncharged_bytes: G / 2, cost_fen: 1000 }),
    ]);

    const csv = (await get('/admin/economics/export?from=2026-05-01&to=2026-05-02&group_by=day')).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const at = csv[0].indexOf('uncharged_bytes');
    expect(at).toBe(csv[0].indexOf('bytes') + 1);
    expect(csv.slice(1).map((cells) => [cells[1], cells[at], cells[at + 1], cells[at + 2]])).toEqual([
      ['2026-05-01', String(G / 4), '7.50', '10.00'],
      ['2026-05-02', String(G / 4), '2.50', '0.00'],
      ['', String(G / 2), '10.00', '10.00'],
    ]);
    const zh = (await get('/admin/economics/export?from=2026-05-01&to=2026-05-02', 'zh')).body;
    expect(zh.split('\r\n')[0]).toContain('字节数,未计费字节数,成本(元)');
  });

  it("sets the pool's uncharged bytes beside the provider's report too: the provider counts every byte", async () => {
    const res = await get(`/admin/economics/pools/${poolId}/reconciliation?from=2026-05-01&to=2026-05-02`);
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data.days.map((d: { day: string; our_bytes: number }) => [d.day, d.our_bytes])).toEqual([
      ['2026-05-01', G / 2 + G / 4],
      ['2026-05-02', G / 4],
    ]);
  });
});
