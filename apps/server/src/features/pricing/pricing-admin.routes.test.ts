import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_CATALOGUE } from '@proxy/contract';
import { priceVersions, proxyOrders } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import {
  balanceFen,
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../proxies/proxies-test-kit';
import { createPriceVersions, loadPricing } from './pricing.service';

const HOUR = 3_600_000;

describe('operators: versioned prices', () => {
  const clock = createFakeClock(new Date('2026-06-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let operator: TTestUser;
  let ann: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    operator = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    await creditFen(t.deps, ann.userId, 1_000_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  const asOperator = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, lang = 'en') =>
    request(t.app, method, url, { token: operator.token, body, lang });
  const versionCount = async () => (await t.db.db.select().from(priceVersions)).length;
  const lastOrder = async () => (await t.db.db.select().from(proxyOrders).orderBy(desc(proxyOrders.id)).limit(1))[0];
  const buyTraffic = () =>
    buyOk(t.app, ann.token, '/token/static/traffic', { network: 'HTTP', country_id: 'us', quantity: 1, traffic_gb: 1 });

  it('lists every key at its list price (version 0) before any change', async () => {
    const res = await asOperator('GET', '/admin/prices');
    expect(res.json().code, res.body).toBe(0);
    const prices = res.json().data.prices as {
      key: string;
      amount_fen: number;
      version_id: number;
      default_fen: number;
      scheduled: unknown[];
    }[];
    expect(prices.map((p) => p.key)).toEqual(Object.keys(DEFAULT_PRICE_CATALOGUE));
    for (const p of prices) {
      expect(p).toMatchObject({
        amount_fen: DEFAULT_PRICE_CATALOGUE[p.key as keyof typeof DEFAULT_PRICE_CATALOGUE],
        version_id: 0,
        scheduled: [],
      });
    }
  });

  it('a raised price is what the next purchase pays, and the order records its version', async () => {
    const before = await buyTraffic();
    expect(before.cost).toBe(40);
    expect((await lastOrder()).priceVersions).toMatchObject({ residential_traffic_tier0_fen: 0 });

    const raised = await asOperator('POST', '/admin/prices', {
      prices: [{ item: 'residential_traffic_tier0_fen', amount_fen: 4500 }],
    });
    expect(raised.json().code, raised.body).toBe(0);
    const [version] = raised.json().data.versions;
    expect(version).toMatchObject({
      key: 'residential_traffic_tier0_fen',
      amount_fen: 4500,
      status: 'current',
      created_by: operator.email,
    });

    // The purchase form reads the same catalogue.
    const shown = await request(t.app, 'GET', '/token/prices', { token: ann.token });
    expect(shown.json().data.residential_traffic_tier0_fen).toBe(4500);

    const balance = await balanceFen(t.deps, ann.userId);
    const after = await buyTraffic();
    expect(after.cost).toBe(45);
    expect(await balanceFen(t.deps, ann.userId)).toBe(balance - 4500);
    expect((await lastOrder()).priceVersions).toMatchObject({
      residential_traffic_tier0_fen: version.id,
      idc_traffic_fen: 0,
    });

    const list = await asOperator('GET', '/admin/prices');
    expect(list.json().data.prices[0]).toMatchObject({
      key: 'residential_traffic_tier0_fen',
      amount_fen: 4500,
      version_id: version.id,
      default_fen: 4000,
    });

    // Audited automatically.
    const audit = await asOperator('GET', '/admin/audit/list?route=adminPriceCreate');
    expect(audit.json().data.records).toEqual([
      expect.objectContaining({
        operator_id: operator.userId,
        result: 'ok',
        input: expect.objectContaining({ prices: [{ item: 'residential_traffic_tier0_fen', amount_fen: 4500 }] }),
      }),
    ]);
  });

  it('a future version is not used before its time and is used after it, without a restart', async () => {
    const at = new Date(clock.now().getTime() + 2 * HOUR);
    const res = await asOperator('POST', '/admin/prices', {
      prices: [{ item: 'residential_traffic_tier0_fen', amount_fen: 5000 }],
      effective_at: at.toISOString(),
    });
    expect(res.json().data.versions[0]).toMatchObject({ status: 'scheduled', effective_at: at.toISOString() });
    const scheduledId = res.json().data.versions[0].id as number;

    const listed = await asOperator('GET', '/admin/prices');
    expect(listed.json().data.prices[0]).toMatchObject({
      amount_fen: 4500,
      scheduled: [expect.objectContaining({ id: scheduledId, amount_fen: 5000 })],
    });
    expect((await buyTraffic()).cost).toBe(45);

    clock.advance(2 * HOUR - 1);
    expect((await loadPricing(t.db.db, clock.now())).catalogue.residential_traffic_tier0_fen).toBe(4500);
    clock.advance(1);
    expect((await buyTraffic()).cost).toBe(50);
    expect((await lastOrder()).priceVersions).toMatchObject({ residential_traffic_tier0_fen: scheduledId });

    const history = await asOperator('GET', '/admin/prices/history?key=residential_traffic_tier0_fen');
    expect(
      history.json().data.records.map((r: { amount_fen: number; status: string }) => [r.amount_fen, r.status]),
    ).toEqual([
      [5000, 'current'],
      [4500, 'past'],
    ]);
  });

  it('refuses bad input with a message and changes nothing', async () => {
    const count = await versionCount();
    const cases: [object, string, string][] = [
      [{ prices: [{ item: 'gold_fen', amount_fen: 100 }] }, 'prices.0.item', '未知的价格项'],
      [
        { prices: [{ item: 'idc_traffic_fen', amount_fen: 0 }] },
        'prices.0.amount_fen',
        '价格须为 1 至 100000000 分的整数',
      ],
      [
        { prices: [{ item: 'idc_traffic_fen', amount_fen: 10.5 }] },
        'prices.0.amount_fen',
        '价格须为 1 至 100000000 分的整数',
      ],
      [
        { prices: [{ item: 'idc_traffic_fen', amount_fen: '1200' }] },
        'prices.0.amount_fen',
        '价格须为 1 至 100000000 分的整数',
      ],
      [{ prices: [] }, 'prices', '请至少修改一项价格'],
      [
        {
          prices: [
            { item: 'idc_traffic_fen', amount_fen: 1200 },
            { item: 'idc_traffic_fen', amount_fen: 1300 },
          ],
        },
        'prices.1.item',
        '同一价格项在一次修改中只能出现一次',
      ],
      [
        { prices: [{ item: 'idc_traffic_fen', amount_fen: 1200 }], effective_at: 'tomorrow' },
        'effective_at',
        '请输入有效的 ISO 8601 日期或时间',
      ],
      [
        {
          prices: [{ item: 'idc_traffic_fen', amount_fen: 1200 }],
          effective_at: new Date(clock.now().getTime() - HOUR).toISOString(),
        },
        'effective_at',
        '生效时间不能早于当前时间',
      ],
      [
        {
          prices: [{ item: 'idc_traffic_fen', amount_fen: 1200 }],
          effective_at: new Date(clock.now().getTime() + 400 * 24 * HOUR).toISOString(),
        },
        'effective_at',
        '生效时间最多可设在一年之后',
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await asOperator('POST', '/admin/prices', body, 'zh');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.issues).toContainEqual(
        expect.objectContaining({ path, message: expect.stringContaining(message) }),
      );
    }
    const badQuery = await asOperator('GET', '/admin/prices/history?key=nope', undefined, 'en');
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().data.issues[0]).toMatchObject({
      path: 'key',
      message: expect.stringContaining('Unknown price key'),
    });
    expect(await versionCount()).toBe(count);
    expect((await loadPricing(t.db.db, clock.now())).catalogue.idc_traffic_fen).toBe(
      DEFAULT_PRICE_CATALOGUE.idc_traffic_fen,
    );
  });

  it('refuses customers every operator price call', async () => {
    for (const [method, url, body] of [
      ['GET', '/admin/prices', undefined],
      ['GET', '/admin/prices/history', undefined],
      ['POST', '/admin/prices', { prices: [{ item: 'idc_traffic_fen', amount_fen: 1 }] }],
    ] as const) {
      const res = await request(t.app, method, url, { token: ann.token, body });
      expect(res.statusCode, url).toBe(403);
    }
    expect((await t.db.db.select().from(priceVersions).where(eq(priceVersions.amountFen, 1))).length).toBe(0);
  });

  it('versions written at the same time each get their own number, and the later id wins a tie', async () => {
    const at = new Date(clock.now().getTime() + HOUR).toISOString();
    const both = await Promise.all(
      [1500, 1600].map((fen) =>
        createPriceVersions(
          t.deps,
          { id: operator.userId, email: operator.email },
          { prices: [{ item: 'idc_traffic_fen', amount_fen: fen }], effective_at: at },
        ),
      ),
    );
    const ids = both.map((b) => b.versions[0].id);
    expect(new Set(ids).size).toBe(2);
    clock.advance(HOUR);
    const winner = both.find((b) => b.versions[0].id === Math.max(...ids))!.versions[0];
    const pricing = await loadPricing(t.db.db, clock.now());
    expect(pricing.catalogue.idc_traffic_fen).toBe(winner.amount_fen);
    expect(pricing.versionIds.idc_traffic_fen).toBe(winner.id);
  });
});
