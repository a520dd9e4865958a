import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

describe('site: settings, terms and the notice', () => {
  const mailer = createMemoryMailer();
  const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let operator: TTestUser;
  let customer: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ mailer, clock, config: { HELP_CENTER_URL: 'https://help.proxyhub.test/docs' } });
    operator = await createAdmin(t.app, t.deps, mailer, 'noticeop');
    customer = await createUser(t.app, mailer, 'noticereader');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the help-center link read at run time, and null when it is unset', async () => {
    const res = await request(t.app, 'GET', '/site/settings');
    expect(res.json()).toMatchObject({ code: 0, data: { help_center_url: 'https://help.proxyhub.test/docs' } });
    const bare = await createTestApp();
    try {
      expect((await request(bare.app, 'GET', '/site/settings')).json().data).toEqual({
        help_center_url: null,
        claims: { residential_ips: '32M+', countries: 195, uptime: '99.9%' },
      });
    } finally {
      await bare.close();
    }
  });

  it('serves the shipped terms in zh and en: non-refundable recharges, frozen supply money, acceptable use, a secret API token', async () => {
    const en = (await request(t.app, 'GET', '/site/terms', { lang: 'en' })).json().data;
    expect(en).toMatchObject({ lang: 'en', source: 'default', updated_at: null });
    expect(en.markdown).toContain('Recharges are non-refundable');
    expect(en.markdown).toMatch(/pre-deducted from your balance and frozen/);
    expect(en.markdown).toMatch(/unfrozen and refunded/);
    expect(en.markdown).toContain('Acceptable use');
    expect(en.markdown).toMatch(/API token \(API key\) is personal and must be kept secret/);
    expect(en.markdown).toContain('Usage by target domain is recorded by default');
    expect(en.markdown).toMatch(/turn it off at any time in the user centre/);
    expect(en.markdown).toContain('The per-connection usage log stays off unless you turn it on');
    const zh = (await request(t.app, 'GET', '/site/terms', { lang: 'zh' })).json().data;
    expect(zh.lang).toBe('zh');
    expect(zh.markdown).toContain('充值不可退款');
    expect(zh.markdown).toContain('预扣并冻结');
    expect(zh.markdown).toContain('个人专用，必须保密');
    expect(zh.markdown).toContain('默认记录按目标域名统计的用量');
    expect(zh.markdown).toContain('逐条连接日志默认关闭，仅在您开启后记录');
  });

  it("shows the operator's terms file from DATA_DIR/terms without a restart, per language; an empty file keeps the shipped text", async () => {
    const dir = t.deps.config.termsDir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'terms.en.md'), '# Our own terms\n\nNo refunds, ever.\n');
    const en = (await request(t.app, 'GET', '/site/terms', { lang: 'en' })).json().data;
    expect(en).toMatchObject({ source: 'custom', markdown: '# Our own terms\n\nNo refunds, ever.\n' });
    expect(en.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await request(t.app, 'GET', '/site/terms', { lang: 'zh' })).json().data.source).toBe('default');
    writeFileSync(path.join(dir, 'terms.en.md'), '  \n');
    expect((await request(t.app, 'GET', '/site/terms', { lang: 'en' })).json().data.source).toBe('default');
  });

  it('answers no notice until the operator publishes one, then the newest in the caller language', async () => {
    expect((await request(t.app, 'GET', '/site/notice', { token: customer.token })).json()).toMatchObject({
      code: 0,
      data: null,
    });
    expect((await request(t.app, 'GET', '/site/notice')).statusCode).toBe(401);

    const body = {
      title_zh: '维护通知',
      title_en: 'Maintenance',
      content_zh: '周六凌晨维护一小时。',
      content_en: 'One hour of maintenance on Saturday night.',
    };
    const published = await request(t.app, 'POST', '/admin/site/notice', { token: operator.token, body });
    expect(published.json()).toMatchObject({ code: 0, data: { ...body, published_at: '2026-03-01T08:00:00.000Z' } });
    const first = published.json().data.notice_id as number;

    const zh = (await request(t.app, 'GET', '/site/notice', { token: customer.token, lang: 'zh' })).json().data;
    expect(zh).toEqual({
      notice_id: first,
      title: '维护通知',
      content: '周六凌晨维护一小时。',
      published_at: '2026-03-01T08:00:00.000Z',
    });
    const en = (await request(t.app, 'GET', '/site/notice', { token: customer.token, lang: 'en' })).json().data;
    expect(en.title).toBe('Maintenance');

    const again = await request(t.app, 'POST', '/admin/site/notice', {
      token: operator.token,
      body: { ...body, title_en: 'Maintenance moved' },
    });
    const second = again.json().data.notice_id as number;
    expect(second).toBeGreaterThan(first);
    expect(
      (await request(t.app, 'GET', '/site/notice', { token: customer.token, lang: 'en' })).json().data,
    ).toMatchObject({
      notice_id: second,
      title: 'Maintenance moved',
    });
    expect((await request(t.app, 'GET', '/admin/site/notice', { token: operator.token })).json().data.notice_id).toBe(
      second,
    );
  });

  it('refuses a notice with empty or too long texts in the caller language and publishes nothing; customers may not publish', async () => {
    const before = (await request(t.app, 'GET', '/admin/site/notice', { token: operator.token })).json().data;
    const bad = await request(t.app, 'POST', '/admin/site/notice', {
      token: operator.token,
      lang: 'en',
      body: { title_zh: ' ', title_en: 'x'.repeat(101), content_zh: 'ok', content_en: 'ok' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'title_zh', message: expect.stringMatching(/required/i) }),
        expect.objectContaining({ path: 'title_en' }),
      ]),
    );
    const zh = await request(t.app, 'POST', '/admin/site/notice', { token: operator.token, lang: 'zh', body: {} });
    expect(zh.statusCode).toBe(400);
    expect(JSON.stringify(zh.json().data.issues)).toContain('必填');
    const asCustomer = await request(t.app, 'POST', '/admin/site/notice', {
      token: customer.token,
      body: { title_zh: 'a', title_en: 'a', content_zh: 'a', content_en: 'a' },
    });
    expect(asCustomer.statusCode).toBe(403);
    expect((await request(t.app, 'GET', '/admin/site/notice', { token: operator.token })).json().data).toEqual(before);
  });
});
