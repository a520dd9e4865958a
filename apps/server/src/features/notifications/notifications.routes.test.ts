import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { callApi, postForm, registerUser } from '../auth/auth-test-kit';
import { writeNotification } from './notifications.service';

describe('notifications', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    token = await registerUser(t.app, mailer, { email: 'olga@example.com', username: 'olga' });
    otherToken = await registerUser(t.app, mailer, { email: 'pete@example.com', username: 'pete' });
  });
  afterAll(async () => {
    await t.close();
  });

  async function userIdOf(tk: string): Promise<number> {
    return (await callApi(t.app, 'GET', '/user/info', { token: tk })).json().data.user_id as number;
  }

  it('lists newest first in the Lang language, with totals and the unread count', async () => {
    clock.advance(60_000);
    await writeNotification(t.deps, await userIdOf(token), 'password_changed');
    const en = await callApi(t.app, 'GET', '/user/notification/list', { token, lang: 'en' });
    expect(en.statusCode).toBe(200);
    const data = en.json().data;
    expect(data).toMatchObject({ total: 3, unread: 3, page: 1, page_size: 20 });
    expect(data.records.map((r: { kind: string }) => r.kind)).toEqual(['password_changed', 'trial_credit', 'welcome']);
    expect(data.records[2]).toMatchObject({ title: 'Welcome to ProxyHub', is_read: false });
    expect(typeof data.records[2].notification_id).toBe('number');
    const zh = await callApi(t.app, 'GET', '/user/notification/list', { token, lang: 'zh' });
    expect(zh.json().data.records[1]).toMatchObject({
      title: '试用额度已到账',
      content: '15 元免费试用额度已存入您的余额。',
    });
  });

  it('pages with page and page_size', async () => {
    const res = await callApi(t.app, 'GET', '/user/notification/list?page=2&page_size=2', { token });
    expect(res.json().data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(res.json().data.records.map((r: { kind: string }) => r.kind)).toEqual(['welcome']);
    const bad = await callApi(t.app, 'GET', '/user/notification/list?page=0', { token });
    expect(bad.statusCode).toBe(400);
  });

  it("marks one as read (idempotently); another user's or an unknown id is 404", async () => {
    const list = (await callApi(t.app, 'GET', '/user/notification/list', { token })).json().data.records;
    const id = list[0].notification_id as number;
    const res = await postForm(t.app, '/user/notification/mark_as_read', { notification_id: String(id) }, { token });
    expect(res.json()).toMatchObject({ code: 0, data: null });
    expect(
      (await postForm(t.app, '/user/notification/mark_as_read', { notification_id: String(id) }, { token })).json()
        .code,
    ).toBe(0);
    const after = (await callApi(t.app, 'GET', '/user/notification/list', { token })).json().data;
    expect(after.unread).toBe(2);
    expect(after.records[0].is_read).toBe(true);
    const unreadOnly = (await callApi(t.app, 'GET', '/user/notification/list?unread=true', { token })).json().data;
    expect(unreadOnly).toMatchObject({ total: 2, unread: 2 });

    const foreign = await postForm(
      t.app,
      '/user/notification/mark_as_read',
      { notification_id: String(id) },
      { token: otherToken, lang: 'en' },
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      code: 1014,
      msg: 'Notification not found',
      data: { error: 'NOTIFICATION_NOT_FOUND' },
    });
    const foreignList = (await callApi(t.app, 'GET', '/user/notification/list', { token: otherToken })).json().data;
    expect(foreignList.unread).toBe(2);
    const unknown = await postForm(t.app, '/user/notification/mark_as_read', { notification_id: '999999' }, { token });
    expect(unknown.statusCode).toBe(404);
    const bad = await postForm(t.app, '/user/notification/mark_as_read', { notification_id: 'x' }, { token });
    expect(bad.statusCode).toBe(400);
  });

  it('marks all as read with notification_id=all, only for the caller', async () => {
    const res = await postForm(t.app, '/user/notification/mark_as_read', { notification_id: 'all' }, { token });
    expect(res.json().code).toBe(0);
    expect((await callApi(t.app, 'GET', '/user/notification/list', { token })).json().data.unread).toBe(0);
    expect((await callApi(t.app, 'GET', '/user/notification/list', { token: otherToken })).json().data.unread).toBe(2);
  });

  it('needs a session', async () => {
    expect((await callApi(t.app, 'GET', '/user/notification/list')).statusCode).toBe(401);
  });
});
