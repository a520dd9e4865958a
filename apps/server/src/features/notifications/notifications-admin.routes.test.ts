import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

describe("operators' notifications to customers", () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;
  let ben: TTestUser;
  const body = {
    title_zh: '维护 {x}',
    title_en: 'Maintenance {x}',
    content_zh: '今晚 22:00 维护。',
    content_en: 'Maintenance tonight at 22:00.',
  };

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (input: object, lang = 'en', token = oper.token) =>
    request(t.app, 'POST', '/admin/notifications/send', { token, body: input, lang });
  const latest = async (user: TTestUser, lang: string) =>
    (await request(t.app, 'GET', '/user/notification/list', { token: user.token, lang })).json().data.records[0];

  it('sends to one customer, in each reader’s language, the text exactly as written', async () => {
    expect((await send({ ...body, user_id: ann.userId })).json().data).toEqual({ sent: 1 });
    expect(await latest(ann, 'zh')).toMatchObject({
      kind: 'operator_message',
      title: '维护 {x}',
      content: '今晚 22:00 维护。',
    });
    expect(await latest(ann, 'en')).toMatchObject({
      title: 'Maintenance {x}',
      content: 'Maintenance tonight at 22:00.',
    });
    expect((await latest(ben, 'en'))?.kind).not.toBe('operator_message');
  });

  it('sends to every active account, and not to a disabled one', async () => {
    await request(t.app, 'PUT', `/admin/users/${ben.userId}/status`, {
      token: oper.token,
      body: { status: 'disabled' },
    });
    const res = await send({ ...body, title_en: 'To all' });
    expect(res.json().data).toEqual({ sent: 2 }); // ann and the operator
    expect(await latest(ann, 'en')).toMatchObject({ title: 'To all' });
    await request(t.app, 'PUT', `/admin/users/${ben.userId}/status`, { token: oper.token, body: { status: 'active' } });
  });

  it('refuses a missing language, an unknown customer and customers, sending nothing', async () => {
    const missing = await send({ ...body, content_en: ' ', user_id: ann.userId }, 'zh');
    expect([missing.statusCode, missing.json().data.issues[0].path]).toEqual([400, 'content_en']);
    const unknown = await send({ ...body, user_id: 999_999 }, 'zh');
    expect([unknown.statusCode, unknown.json().data.issues[0]]).toEqual([
      400,
      { path: 'user_id', message: '用户不存在' },
    ]);
    expect((await send(body, 'en', ann.token)).statusCode).toBe(403);
    const audit = await request(t.app, 'GET', '/admin/audit/list?route=adminNotificationSend', { token: oper.token });
    expect(audit.json().data.total).toBe(4);
  });
});
