import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type TRouteDef } from '@proxy/contract';
import { createMemoryMailer, createTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

describe('operator area: admin routes and their audit', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let operator: TTestUser;
  let customer: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    operator = await createAdmin(t.app, t.deps, mailer, 'oper');
    customer = await createUser(t.app, mailer, 'carol');
  });
  afterAll(async () => {
    await t?.close();
  });

  const adminRoutes = Object.entries(ROUTES as Record<string, TRouteDef>).filter(([, def]) => def.auth === 'admin');

  it('refuses every admin route to a customer with 403, and to nobody with 401', async () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(2);
    for (const [name, def] of adminRoutes) {
      const url = def.path.replace(/:\w+/g, '1');
      const asCustomer = await request(t.app, def.method, url, {
        token: customer.token,
        body: def.method === 'GET' ? undefined : {},
      });
      expect(asCustomer.statusCode, name).toBe(403);
      expect(asCustomer.json().code, name).toBe(403);
      const anonymous = await request(t.app, def.method, url);
      expect(anonymous.statusCode, name).toBe(401);
    }
    const audit = await request(t.app, 'GET', '/admin/audit/list', { token: operator.token });
    expect(audit.json().data.total).toBe(0);
  });

  it("writes an audit entry for an operator change, and the disabled customer's session ends with -401", async () => {
    const before = await request(t.app, 'GET', '/user/info', { token: customer.token });
    expect(before.json().code).toBe(0);
    const off = await request(t.app, 'PUT', `/admin/users/${customer.userId}/status`, {
      token: operator.token,
      body: { status: 'disabled' },
    });
    expect(off.json(), off.body).toMatchObject({ code: 0, data: { user_id: customer.userId, status: 'disabled' } });
    const after = await request(t.app, 'GET', '/user/info', { token: customer.token });
    expect(after.json().code).toBe(-401);

    const list = await request(t.app, 'GET', `/admin/audit/list?target_id=${customer.userId}`, {
      token: operator.token,
    });
    expect(list.json().data.records).toEqual([
      expect.objectContaining({
        operator_id: operator.userId,
        operator_email: operator.email,
        route: 'adminUserSetStatus',
        method: 'PUT',
        path: `/api/admin/users/${customer.userId}/status`,
        target_id: String(customer.userId),
        // The parsed input: the path id as a number.
        input: { id: customer.userId, status: 'disabled' },
        result: 'ok',
        error_code: null,
      }),
    ]);
    await request(t.app, 'PUT', `/admin/users/${customer.userId}/status`, {
      token: operator.token,
      body: { status: 'active' },
    });
  });

  it('audits refused operator calls too, with the error, and keeps secrets out of the entry', async () => {
    const self = await request(t.app, 'PUT', `/admin/users/${operator.userId}/status`, {
      token: operator.token,
      body: { status: 'disabled', password: 'hunter22', api_key: 'pk_x' },
    });
    expect(self.json().code).toBe(1015);
    const bad = await request(t.app, 'PUT', '/admin/users/999999/status', {
      token: operator.token,
      body: { status: 'gone', password: 'hunter23' },
    });
    expect(bad.statusCode).toBe(400);
    const list = await request(t.app, 'GET', '/admin/audit/list?page_size=2', { token: operator.token });
    const [newest, older] = list.json().data.records;
    // Refused before parsing: the input as sent, secrets replaced.
    expect(newest).toMatchObject({
      target_id: '999999',
      result: 'error',
      error_code: 'BAD_REQUEST',
      input: { status: 'gone', password: '[redacted]' },
    });
    expect(older).toMatchObject({
      target_id: String(operator.userId),
      result: 'error',
      error_code: 'SELF_ACTION_REFUSED',
      // Parsed: fields the route does not take are not kept, secrets among them.
      input: { id: operator.userId, status: 'disabled' },
    });
    expect(JSON.stringify(older.input)).not.toMatch(/hunter22|pk_x/);
  });

  it('audits a call refused for control characters, storing them as U+FFFD (the database cannot hold NUL)', async () => {
    const res = await request(t.app, 'PUT', '/admin/users/a%00b/admin', {
      token: operator.token,
      body: { is_admin: true, note: 'x\u0000y' },
    });
    expect(res.statusCode).toBe(400);
    const list = await request(t.app, 'GET', '/admin/audit/list?route=adminUserSetAdmin', { token: operator.token });
    expect(list.json().data.records[0]).toMatchObject({
      target_id: 'a\uFFFDb',
      result: 'error',
      error_code: 'BAD_REQUEST',
      input: { note: 'x\uFFFDy' },
    });
  });

  it('never updates or deletes an audit entry, and reading the list is not audited', async () => {
    const total = (await request(t.app, 'GET', '/admin/audit/list', { token: operator.token })).json().data.total;
    await expect(t.db.db.execute(sql`UPDATE audit_entries SET result = 'ok'`)).rejects.toThrow();
    await expect(t.db.db.execute(sql`DELETE FROM audit_entries`)).rejects.toThrow();
    expect((await request(t.app, 'GET', '/admin/audit/list', { token: operator.token })).json().data.total).toBe(total);
  });

  it("filters by route and time, and refuses bad filters in the caller's language", async () => {
    const byRoute = await request(t.app, 'GET', '/admin/audit/list?route=adminUserSetStatus', {
      token: operator.token,
    });
    expect(byRoute.json().data.total).toBe(4);
    const future = await request(t.app, 'GET', `/admin/audit/list?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`, {
      token: operator.token,
    });
    expect(future.json().data.total).toBe(0);
    const bad = await request(t.app, 'GET', '/admin/audit/list?from=yesterday', { token: operator.token, lang: 'zh' });
    expect(bad.statusCode).toBe(400);
  });

  it('filters by operator (id or part of the e-mail), action, target and time together', async () => {
    const second = await createAdmin(t.app, t.deps, mailer, 'watcher');
    await request(t.app, 'PUT', `/admin/users/${customer.userId}/admin`, {
      token: second.token,
      body: { is_admin: false },
    });
    const list = (query: string) => request(t.app, 'GET', `/admin/audit/list?${query}`, { token: operator.token });
    const byEmail = await list('operator_email=WATCHER%40EXAMPLE');
    expect(
      byEmail.json().data.records.map((r: { operator_id: number; route: string }) => [r.operator_id, r.route]),
    ).toEqual([[second.userId, 'adminUserSetAdmin']]);
    expect((await list(`operator_id=${second.userId}`)).json().data.total).toBe(1);
    expect((await list(`operator_id=${operator.userId}&operator_email=watcher`)).json().data.total).toBe(0);
    const mine = (await list(`operator_email=oper%40&route=adminUserSetStatus&target_id=${customer.userId}`)).json()
      .data;
    expect(mine.total).toBe(2);
    expect(mine.records.every((r: { operator_email: string }) => r.operator_email === operator.email)).toBe(true);
    // LIKE's own characters match themselves.
    expect((await list('operator_email=%25')).json().data.total).toBe(0);
    const now = new Date();
    const window = `from=${encodeURIComponent(new Date(now.getTime() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(now.getTime() + 3_600_000).toISOString())}`;
    expect((await list(`${window}&operator_email=watcher`)).json().data.total).toBe(1);
    expect((await list(`to=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).json().data.total).toBe(0);
    const tooLong = await request(t.app, 'GET', `/admin/audit/list?operator_email=${'a'.repeat(255)}`, {
      token: operator.token,
      lang: 'zh',
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().data.issues[0]).toMatchObject({ path: 'operator_email' });
  });
});
