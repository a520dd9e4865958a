import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes, pools } from '@proxy/db';
import { eq } from 'drizzle-orm';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { addTestPool } from '../areas/areas-test-kit';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

// The marketing figures as operator settings (docs/operator-guide.md, "Marketing figures"): saved, answered to
// everyone by GET /site/settings and the invite page, bad values refused in zh and en with nothing changed, and the
// countries in stock beside them.
describe('the marketing figures', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let customer: TTestUser;
  const put = (body: object, lang = 'en', user = oper) =>
    request(t.app, 'PUT', '/admin/system/settings', { token: user.token, body, lang });
  const publicClaims = async () => (await request(t.app, 'GET', '/site/settings')).json().data.claims;
  const stock = async () =>
    (await request(t.app, 'GET', '/admin/system/claims-stock', { token: oper.token, lang: 'en' })).json();

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    oper = await createAdmin(t.app, t.deps, mailer, 'claimsop');
    customer = await createUser(t.app, mailer, 'claimscust');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the spec's figures until the operator sets them, then the operator's everywhere they show", async () => {
    expect(await publicClaims()).toEqual({ residential_ips: '32M+', countries: 195, uptime: '99.9%' });
    const res = await put({ claim_residential_ips: ' 2M+ ', claim_countries: 12, claim_uptime: '99.5%' });
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { claim_residential_ips: '2M+', claim_countries: 12, claim_uptime: '99.5%' },
    });
    expect(await publicClaims()).toEqual({ residential_ips: '2M+', countries: 12, uptime: '99.5%' });
    // The invite page (public) shows them too.
    const share = await request(t.app, 'GET', '/invite/share/NOSUCHCODE');
    expect(share.json().data.claims).toEqual({ residential_ips: '2M+', countries: 12, uptime: '99.5%' });
    // One figure alone leaves the others and the other settings as they were.
    const one = await put({ claim_countries: 250 });
    expect(one.json().data).toEqual({
      admin_totp_required: false,
      ip_dynamic_fair_use_gb_per_day: 0,
      claim_residential_ips: '2M+',
      claim_countries: 250,
      claim_uptime: '99.5%',
    });
    const list = await request(t.app, 'GET', '/admin/audit/list?page_size=1', { token: oper.token });
    expect(list.json().data.records[0]).toMatchObject({
      route: 'adminSystemSettingsUpdate',
      input: { claim_countries: 250 },
      result: 'ok',
    });
  });

  it('refuses figures out of bounds in zh and en, changing nothing', async () => {
    const before = await publicClaims();
    const textRefusals = ['', '   ', 'x'.repeat(17), 32, null];
    for (const bad of textRefusals) {
      for (const field of ['claim_residential_ips', 'claim_uptime']) {
        const res = await put({ claim_countries: 3, [field]: bad });
        expect(res.statusCode, `${field}=${String(bad)}`).toBe(400);
        expect(res.json().data.issues).toEqual([
          expect.objectContaining({
            path: field,
            message: 'The figure must be 1 to 16 characters',
          }),
        ]);
      }
    }
    for (const bad of [0, 251, 1.5, -3, '195', null]) {
      const res = await put({ claim_residential_ips: '1M+', claim_countries: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().data.issues).toEqual([
        expect.objectContaining({
          path: 'claim_countries',
          message: 'The countries must be a whole number from 1 to 250',
        }),
      ]);
    }
    const zh = await put({ claim_countries: 251, claim_uptime: '' }, 'zh');
    expect(
      zh
        .json()
        .data.issues.map((i: { message: string }) => i.message)
        .sort(),
    ).toEqual(['国家数须为 1-250 的整数', '该数字须为 1-16 个字符'].sort());
    expect(await publicClaims()).toEqual(before);
    // Customers can neither change them nor read the stock.
    expect((await put({ claim_countries: 1 }, 'en', customer)).statusCode).toBe(403);
    const asCustomer = await request(t.app, 'GET', '/admin/system/claims-stock', { token: customer.token });
    expect(asCustomer.statusCode).toBe(403);
    expect(await publicClaims()).toEqual(before);
  });

  it('lists the countries in stock: active exits and the countries of enabled pools, a pool for all said apart', async () => {
    expect((await stock()).data).toEqual({ countries: [], pools_serve_all: false });
    await t.db.db.insert(exitNodes).values([
      { kind: 'residential', egress: 'direct', country: 'us', exitIp: '198.51.100.1' },
      { kind: 'datacenter', egress: 'direct', country: 'de', exitIp: '198.51.100.2' },
      // Disabled: not in stock.
      { kind: 'residential', egress: 'direct', country: 'fr', exitIp: '198.51.100.3', status: 'disabled' },
    ]);
    await addTestPool(t.db.db, 'list-pool', {
      coverage: [
        { country: 'us', state: '', city: '' },
        { country: 'jp', state: '13', city: '' },
      ],
    });
    // Paused: not in stock.
    await addTestPool(t.db.db, 'paused-pool', { status: 'paused', coverage: [{ country: 'br', state: '', city: '' }] });
    const listed = (await stock()).data;
    expect(listed).toEqual({
      countries: [
        { id: 'de', name_zh: '德国', name_en: 'Germany', has_exits: true, has_pools: false },
        { id: 'jp', name_zh: '日本', name_en: 'Japan', has_exits: false, has_pools: true },
        { id: 'us', name_zh: '美国', name_en: 'United States of America', has_exits: true, has_pools: true },
      ],
      pools_serve_all: false,
    });
    const allId = await addTestPool(t.db.db, 'all-pool');
    expect((await stock()).data).toEqual({ countries: listed.countries, pools_serve_all: true });
    await t.db.db.update(pools).set({ status: 'paused' }).where(eq(pools.id, allId));
    expect((await stock()).data.pools_serve_all).toBe(false);
  });
});
