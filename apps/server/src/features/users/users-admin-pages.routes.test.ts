import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_MS } from '@proxy/contract';
import { createFakeClock, createTestApp, type TMemoryMailer, type TTestApp } from '../../../test/helpers';
import { smtpTeeMailer, startSmtpSink } from '../../../test/smtp-sink';
import { codeSentTo, postForm, registerUser } from '../auth/auth-test-kit';
import { addTokenUsage } from '../proxies/proxies.repository';
import {
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from '../proxies/proxies-test-kit';

// A real SMTP sink on loopback: the suite's e-mails go through SMTP to it.
describe("operators: an account's proxies, sessions and invitees, and e-mails sent again", () => {
  const clock = createFakeClock(new Date('2026-04-01T08:00:00Z'));
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let mailer: TMemoryMailer;
  let t: TTestApp;
  let oper: TTestUser;
  let dana: TTestUser;
  let eric: TTestUser;
  const kids: TTestUser[] = [];
  const tokenIds: number[] = [];

  const asOperator = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, lang = 'en') =>
    request(t.app, method, url, { token: oper.token, body, lang });
  const auditOf = async (route: string, targetId: number) =>
    (await asOperator('GET', `/admin/audit/list?route=${route}&target_id=${targetId}&page_size=200`)).json().data
      .records as {
      result: string;
      error_code: string | null;
    }[];

  beforeAll(async () => {
    sink = await startSmtpSink();
    mailer = smtpTeeMailer(sink.url);
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    dana = await createUser(t.app, mailer, 'dana');
    eric = await createUser(t.app, mailer, 'eric');
    const code = (await request(t.app, 'GET', '/invite/info', { token: dana.token })).json().data.invite_code as string;
    for (const name of ['kid1', 'kid2']) {
      const token = await registerUser(t.app, mailer, {
        email: `${name}@example.com`,
        username: name,
        invite_code: code,
      });
      kids.push({
        token,
        email: `${name}@example.com`,
        userId: (await request(t.app, 'GET', '/user/info', { token })).json().data.user_id,
      });
    }
    await creditFen(t.deps, dana.userId, 100_000);
    const base = { network: 'HTTP', country_id: 'us', quantity: 1 };
    tokenIds.push(
      (await buyOk(t.app, dana.token, '/token/variable/traffic', { ...base, traffic_gb: 1 })).tokens[0].token_id,
    );
    clock.advance(1000);
    tokenIds.push((await buyOk(t.app, dana.token, '/token/static/ip', { ...base, days: 3 })).tokens[0].token_id);
    await addTokenUsage(t.db.db, tokenIds[0], 12_345);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it("lists an account's proxies, newest first and paged, with product, area, status, expiry and traffic used", async () => {
    const res = await asOperator('GET', `/admin/users/${dana.userId}/proxies`);
    expect(res.statusCode, res.body).toBe(200);
    const { records, total } = res.json().data;
    expect(total).toBe(2);
    expect(records.map((r: { token_id: number }) => r.token_id)).toEqual([tokenIds[1], tokenIds[0]]);
    expect(records[0]).toMatchObject({
      product: 'static',
      category: 'isp',
      billing: 'ip',
      country: 'us',
      status: 'enabled',
      traffic_limit: null,
    });
    expect(records[0].expires_at).toBe(new Date(clock.now().getTime() + 3 * 86_400_000).toISOString());
    expect(records[1]).toMatchObject({
      product: 'dynamic',
      billing: 'traffic',
      traffic_used: 12_345,
      traffic_limit: 1024 ** 3,
    });
    const second = await asOperator('GET', `/admin/users/${dana.userId}/proxies?page=2&page_size=1`);
    expect(second.json().data).toMatchObject({ total: 2, page: 2, page_size: 1, records: [{ token_id: tokenIds[0] }] });
    expect((await asOperator('GET', `/admin/users/${eric.userId}/proxies`)).json().data).toMatchObject({
      records: [],
      total: 0,
    });
  });

  it('lists the accounts one invited with full e-mails, newest first', async () => {
    const res = await asOperator('GET', `/admin/users/${dana.userId}/invitees`);
    expect(res.json().data.total).toBe(2);
    expect(res.json().data.records.map((r: { email: string }) => r.email)).toEqual([
      'kid2@example.com',
      'kid1@example.com',
    ]);
    expect(res.json().data.records[0]).toMatchObject({
      user_id: kids[1].userId,
      username: 'kid2',
      status: 'active',
      total_balance: 0,
    });
    expect((await asOperator('GET', `/admin/users/${eric.userId}/invitees`)).json().data.total).toBe(0);
  });

  it('lists open sessions and ends one: its token answers -401 at once, the others go on, and the audit has it', async () => {
    const first = { ...eric };
    clock.advance(1000);
    await signIn(t.app, eric);
    const res = await asOperator('GET', `/admin/users/${eric.userId}/sessions`);
    const { records, total } = res.json().data;
    expect(total).toBe(2);
    expect(records[0]).toMatchObject({
      method: expect.any(String),
      ip: expect.any(String),
      user_agent: expect.any(String),
    });
    expect(records[0].id).toBeGreaterThan(records[1].id);

    const oldest = records[1].id as number;
    const end = await asOperator('POST', `/admin/users/${eric.userId}/sessions/${oldest}/end`);
    expect(end.json(), end.body).toMatchObject({ code: 0, data: null });
    expect((await request(t.app, 'GET', '/user/info', { token: first.token })).json().code).toBe(-401);
    expect((await request(t.app, 'GET', '/user/info', { token: eric.token })).json().code).toBe(0);
    expect((await asOperator('GET', `/admin/users/${eric.userId}/sessions`)).json().data.total).toBe(1);

    // Ended already, or another account's: not found, nothing ends.
    const again = await asOperator('POST', `/admin/users/${eric.userId}/sessions/${oldest}/end`, undefined, 'zh');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ msg: '登录会话不存在或已结束', data: { error: 'SESSION_NOT_FOUND' } });
    const danaSession = (await asOperator('GET', `/admin/users/${dana.userId}/sessions`)).json().data.records[0].id;
    expect((await asOperator('POST', `/admin/users/${eric.userId}/sessions/${danaSession}/end`)).statusCode).toBe(404);
    expect((await request(t.app, 'GET', '/user/info', { token: dana.token })).json().code).toBe(0);

    expect((await auditOf('adminUserSessionEnd', eric.userId)).map((e) => e.result).sort()).toEqual([
      'error',
      'error',
      'ok',
    ]);
  });

  it('sends a password reset code through SMTP (the reset page e-mail, its throttle), and the code resets the password', async () => {
    clock.advance(CODE_RESEND_MS);
    const before = sink.received.length;
    const res = await asOperator('POST', `/admin/users/${dana.userId}/mail`, { kind: 'password_reset' });
    expect(res.json(), res.body).toEqual({
      code: 0,
      msg: 'OK',
      data: { kind: 'password_reset', email: dana.email, resend_after: 60 },
    });
    expect(sink.received.slice(before).map((m) => m.to)).toEqual([[dana.email]]);
    expect(sink.received.at(-1)!.raw).toContain('Subject:');

    // Within the minute: the same throttle as the reset page, nothing sent.
    const soon = await asOperator('POST', `/admin/users/${dana.userId}/mail`, { kind: 'password_reset' });
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ code: 1005, data: { error: 'CODE_TOO_FREQUENT' } });
    expect(soon.json().msg).toMatch(/try again in \d+ s/);
    expect(sink.received.length).toBe(before + 1);

    const code = codeSentTo(mailer, dana.email);
    const reset = await postForm(t.app, '/user/reset_password', {
      email: dana.email,
      code,
      password: 'dana-new-password',
      confirm_password: 'dana-new-password',
    });
    expect(reset.json().code, reset.body).toBe(0);
    expect(
      (await postForm(t.app, '/user/login', { email: dana.email, password: 'dana-new-password' })).json().code,
    ).toBe(0);
    expect((await auditOf('adminUserSendMail', dana.userId)).map((e) => e.error_code ?? 'ok').sort()).toEqual([
      'CODE_TOO_FREQUENT',
      'ok',
    ]);
  });

  it('refuses a verification e-mail for a verified address and any e-mail to a disabled account, with clear messages', async () => {
    clock.advance(CODE_RESEND_MS);
    const before = sink.received.length;
    const verified = await asOperator('POST', `/admin/users/${kids[0].userId}/mail`, { kind: 'verification' }, 'zh');
    expect(verified.statusCode).toBe(409);
    expect(verified.json()).toMatchObject({ code: 1042, data: { error: 'EMAIL_ALREADY_VERIFIED' } });
    expect(verified.json().msg).toContain('邮箱已验证');

    expect((await asOperator('PUT', `/admin/users/${kids[1].userId}/status`, { status: 'disabled' })).json().code).toBe(
      0,
    );
    for (const kind of ['password_reset', 'verification']) {
      const disabled = await asOperator('POST', `/admin/users/${kids[1].userId}/mail`, { kind });
      expect(disabled.statusCode).toBe(409);
      expect(disabled.json()).toEqual({
        code: 1041,
        msg: 'This account is disabled; no e-mail is sent to it',
        data: { error: 'MAIL_ACCOUNT_DISABLED' },
      });
    }
    expect(sink.received.length).toBe(before);
  });

  it('refuses bad input with the field and a message, unknown accounts with 404, and customers with 403', async () => {
    const bad = await asOperator('POST', `/admin/users/${dana.userId}/mail`, { kind: 'welcome' }, 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0]).toMatchObject({
      path: 'kind',
      message: '邮件类型须为 verification（验证邮件）或 password_reset（重置密码邮件）',
    });
    const badEn = await asOperator('POST', `/admin/users/${dana.userId}/mail`, {});
    expect(badEn.json().data.issues[0]).toMatchObject({
      path: 'kind',
      message: 'The e-mail kind must be verification or password_reset',
    });
    for (const list of ['proxies', 'sessions', 'invitees']) {
      const page = await asOperator('GET', `/admin/users/${dana.userId}/${list}?page=0`);
      expect(page.statusCode, list).toBe(400);
      expect(page.json().data.issues[0].path, list).toBe('page');
      expect((await asOperator('GET', `/admin/users/999999/${list}`)).statusCode, list).toBe(404);
      expect((await asOperator('GET', `/admin/users/abc/${list}`)).statusCode, list).toBe(400);
      expect(
        (await request(t.app, 'GET', `/admin/users/${dana.userId}/${list}`, { token: eric.token })).statusCode,
        list,
      ).toBe(403);
    }
    expect((await asOperator('POST', `/admin/users/${dana.userId}/sessions/abc/end`)).json().data.issues[0].path).toBe(
      'session_id',
    );
    expect((await asOperator('POST', '/admin/users/999999/mail', { kind: 'password_reset' })).statusCode).toBe(404);
    expect((await asOperator('POST', '/admin/users/999999/sessions/1/end')).statusCode).toBe(404);
    const customerMail = await request(t.app, 'POST', `/admin/users/${dana.userId}/mail`, {
      token: eric.token,
      body: { kind: 'password_reset' },
    });
    expect(customerMail.statusCode).toBe(403);
    const customerEnd = await request(t.app, 'POST', `/admin/users/${dana.userId}/sessions/1/end`, {
      token: eric.token,
    });
    expect(customerEnd.statusCode).toBe(403);
    expect((await auditOf('adminUserSendMail', dana.userId)).some((e) => e.error_code === 'BAD_REQUEST')).toBe(true);
  });
});
