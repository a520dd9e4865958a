import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

// The operator's fair-use traffic of IP-billed dynamic proxies (docs/operator-guide.md): its bounds, its errors in
// zh and en, the audit of its changes, and the two-factor setting beside it left as it was.
describe('the fair-use traffic setting', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let customer: TTestUser;
  const put = (body: object, lang = 'en', user = oper) =>
    request(t.app, 'PUT', '/admin/system/settings', { token: user.token, body, lang });
  const settings = async () => (await request(t.app, 'GET', '/admin/system/settings', { token: oper.token })).json();

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    customer = await createUser(t.app, mailer, 'cust');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes 0 to 1000 GB per day with one decimal, keeps what is left out, and audits each change', async () => {
    expect((await settings()).data.ip_dynamic_fair_use_gb_per_day).toBe(0);
    for (const gb of [0.1, 2.5, 1000, 0]) {
      const res = await put({ ip_dynamic_fair_use_gb_per_day: gb });
      expect(res.json(), res.body).toMatchObject({ code: 0, data: { ip_dynamic_fair_use_gb_per_day: gb } });
    }
    await put({ ip_dynamic_fair_use_gb_per_day: 12.3 });
    // The two-factor setting alone leaves the fair-use traffic as it was, and the reverse.
    expect((await put({ admin_totp_required: false })).json().data).toEqual({
      admin_totp_required: false,
      ip_dynamic_fair_use_gb_per_day: 12.3,
      claim_residential_ips: '32M+',
      claim_countries: 195,
      claim_uptime: '99.9%',
    });
    const list = await request(t.app, 'GET', '/admin/audit/list?page_size=2', { token: oper.token });
    expect(list.json().data.records).toEqual([
      // The audit hides fields named like secrets ("otp").
      expect.objectContaining({ route: 'adminSystemSettingsUpdate', input: { admin_totp_required: '[redacted]' } }),
      expect.objectContaining({
        route: 'adminSystemSettingsUpdate',
        operator_id: oper.userId,
        input: { ip_dynamic_fair_use_gb_per_day: 12.3 },
        result: 'ok',
      }),
    ]);
  });

  it('refuses values out of bounds or with two decimals in zh and en, changing nothing', async () => {
    for (const gb of [-0.1, 1000.1, 0.25, '5', null, 1e308]) {
      const en = await put({ ip_dynamic_fair_use_gb_per_day: gb });
      expect(en.statusCode, String(gb)).toBe(400);
      expect(en.json().data.issues).toEqual([
        expect.objectContaining({
          path: 'ip_dynamic_fair_use_gb_per_day',
          message: 'The fair-use traffic must be 0 to 1000 GB per day (0 turns it off), with at most one decimal',
        }),
      ]);
    }
    const zh = await put({ ip_dynamic_fair_use_gb_per_day: 0.25 }, 'zh');
    expect(zh.json().data.issues[0].message).toBe('合理使用流量为 0-1000 GB/天（0 为关闭），最多一位小数');
    expect((await settings()).data.ip_dynamic_fair_use_gb_per_day).toBe(12.3);
    // Customers cannot read or change it.
    expect((await put({ ip_dynamic_fair_use_gb_per_day: 1 }, 'en', customer)).statusCode).toBe(403);
    const list = await request(t.app, 'GET', '/admin/audit/list?page_size=1', { token: oper.token });
    expect(list.json().data.records[0]).toMatchObject({
      route: 'adminSystemSettingsUpdate',
      result: 'error',
      error_code: 'BAD_REQUEST',
    });
  });
});
