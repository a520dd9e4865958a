import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { DOWNLOAD_LINK_TTL_S } from './downloads.service';

const WINDOWS = Buffer.from('MZ windows installer bytes 0123456789');
const MAC = Buffer.from('mac disk image bytes');

describe('software download', () => {
  const mailer = createMemoryMailer();
  const clock = createFakeClock(new Date('2026-04-01T00:00:00Z'));
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let buyer: TTestUser;
  let newcomer: TTestUser;
  let dir: string;

  const manifest = {
    name: 'ProxyHub Desktop',
    releases: [
      {
        version: '1.2.0',
        date: '2026-03-20',
        notes: { zh: '新增自动更新。', en: 'Adds automatic updates.' },
        files: [
          { platform: 'windows', arch: 'x64', file: 'ProxyHub-1.2.0-x64.exe' },
          { platform: 'macos', arch: 'universal', file: 'ProxyHub-1.2.0.dmg', sha256: 'A'.repeat(64) },
          { platform: 'linux', file: 'ProxyHub-1.2.0.AppImage' },
        ],
      },
    ],
  };
  const writeManifest = (value: unknown) =>
    writeFileSync(path.join(dir, 'manifest.json'), typeof value === 'string' ? value : JSON.stringify(value));

  beforeAll(async () => {
    t = await createTestApp({ mailer, clock });
    dir = t.deps.config.downloadsDir;
    buyer = await createUser(t.app, mailer, 'softbuyer');
    newcomer = await createUser(t.app, mailer, 'softnew');
    // The role "user" is a total top-up above 1 yuan; the trial credit is not a top-up.
    await t.db.db.update(users).set({ totalRechargeFen: 1000 }).where(eq(users.id, buyer.userId));
    await t.db.db.update(users).set({ totalRechargeFen: 100 }).where(eq(users.id, newcomer.userId));
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  });

  async function linkFor(file: string, user = buyer) {
    return request(t.app, 'POST', '/tools/software/link', { token: user.token, body: { file }, lang: 'en' });
  }

  it('refuses a user without the role, in zh and en, on the list and the link', async () => {
    writeManifest(manifest);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0-x64.exe'), WINDOWS);
    const en = await request(t.app, 'GET', '/tools/software/list', { token: newcomer.token, lang: 'en' });
    expect(en.statusCode).toBe(403);
    expect(en.json()).toMatchObject({ code: 7001, msg: expect.stringContaining('more than 1 yuan') });
    const zh = await request(t.app, 'GET', '/tools/software/list', { token: newcomer.token, lang: 'zh' });
    expect(zh.json().msg).toBe('累计充值超过 1 元后即可下载软件，请先充值');
    expect((await linkFor('ProxyHub-1.2.0-x64.exe', newcomer)).json().code).toBe(7001);
  });

  it('says the software is not published while there is no manifest, and when the manifest is not readable', async () => {
    const none = await request(t.app, 'GET', '/tools/software/list', { token: buyer.token });
    expect(none.json()).toMatchObject({ code: 0, data: { status: 'not_published', releases: [] } });
    expect((await linkFor('ProxyHub-1.2.0-x64.exe')).json()).toMatchObject({
      code: 7002,
      msg: 'The software has not been published yet, please check back later',
    });
    writeManifest('{ not json');
    expect((await request(t.app, 'GET', '/tools/software/list', { token: buyer.token })).json().data.status).toBe(
      'invalid_manifest',
    );
    writeManifest({
      releases: [
        {
          version: '1',
          date: 'yesterday',
          notes: { zh: '', en: '' },
          files: [{ platform: 'windows', file: '../etc/passwd' }],
        },
      ],
    });
    expect((await request(t.app, 'GET', '/tools/software/list', { token: buyer.token })).json().data.status).toBe(
      'invalid_manifest',
    );
  });

  it('lists versions, platforms, sizes, SHA-256 (given or computed) and notes in the caller language; a missing file is marked', async () => {
    writeManifest(manifest);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0-x64.exe'), WINDOWS);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0.dmg'), MAC);
    const res = await request(t.app, 'GET', '/tools/software/list', { token: buyer.token, lang: 'zh' });
    expect(res.json().data).toEqual({
      status: 'ok',
      name: 'ProxyHub Desktop',
      releases: [
        {
          version: '1.2.0',
          date: '2026-03-20',
          notes: '新增自动更新。',
          files: [
            {
              platform: 'windows',
              arch: 'x64',
              file: 'ProxyHub-1.2.0-x64.exe',
              size: WINDOWS.length,
              sha256: createHash('sha256').update(WINDOWS).digest('hex'),
              is_available: true,
              url: null,
            },
            {
              platform: 'macos',
              arch: 'universal',
              file: 'ProxyHub-1.2.0.dmg',
              size: MAC.length,
              sha256: 'a'.repeat(64),
              is_available: true,
              url: null,
            },
            {
              platform: 'linux',
              arch: null,
              file: 'ProxyHub-1.2.0.AppImage',
              size: null,
              sha256: null,
              is_available: false,
              url: null,
            },
          ],
        },
      ],
    });
    expect(
      (await request(t.app, 'GET', '/tools/software/list', { token: buyer.token, lang: 'en' })).json().data.releases[0]
        .notes,
    ).toBe('Adds automatic updates.');
  });

  it('serves a file by its link, whole and by ranges, with its content type; a missing or unlisted file gets a clear message', async () => {
    writeManifest(manifest);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0-x64.exe'), WINDOWS);
    writeFileSync(path.join(dir, 'secret.txt'), 'not in the manifest');
    const link = (await linkFor('ProxyHub-1.2.0-x64.exe')).json().data;
    expect(link.url).toMatch(/^\/api\/tools\/software\/file\/ProxyHub-1\.2\.0-x64\.exe\?ticket=/);
    expect(link.expires_at).toBe(new Date(clock.now().getTime() + DOWNLOAD_LINK_TTL_S * 1000).toISOString());

    const whole = await t.app.inject({ method: 'GET', url: link.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(WINDOWS)).toBe(true);
    expect(whole.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toBe('attachment; filename="ProxyHub-1.2.0-x64.exe"');

    const part = await t.app.inject({ method: 'GET', url: link.url, headers: { range: 'bytes=3-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 3-9/${WINDOWS.length}`);
    expect(part.rawPayload.equals(WINDOWS.subarray(3, 10))).toBe(true);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0.dmg'), MAC);
    const dmg = (await linkFor('ProxyHub-1.2.0.dmg')).json().data;
    expect((await t.app.inject({ method: 'GET', url: dmg.url })).headers['content-type']).toBe(
      'application/x-apple-diskimage',
    );
    const beyond = await t.app.inject({ method: 'GET', url: link.url, headers: { range: 'bytes=999-' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${WINDOWS.length}`);

    expect((await linkFor('ProxyHub-1.2.0.AppImage')).json()).toMatchObject({
      code: 7003,
      msg: expect.stringContaining('not available right now'),
    });
    expect((await linkFor('secret.txt')).json().code).toBe(7003);
    const badName = await linkFor('../manifest.json');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().data.issues[0]).toMatchObject({ path: 'file', message: 'Invalid file name' });
  });

  it('refuses a forged, expired or other-file ticket', async () => {
    writeManifest(manifest);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0-x64.exe'), WINDOWS);
    writeFileSync(path.join(dir, 'ProxyHub-1.2.0.dmg'), MAC);
    const link = (await linkFor('ProxyHub-1.2.0-x64.exe')).json().data;
    const ticket = new URL(link.url, 'http://x').searchParams.get('ticket')!;
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/tools/software/file/ProxyHub-1.2.0.dmg?ticket=${encodeURIComponent(ticket)}`,
      headers: { lang: 'en' },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 7004, msg: expect.stringContaining('invalid or has expired') });
    const forged = ticket.replace(/^\d+/, String(newcomer.userId));
    expect(
      (
        await t.app.inject({ method: 'GET', url: `${link.url.split('?')[0]}?ticket=${encodeURIComponent(forged)}` })
      ).json().code,
    ).toBe(7004);
    expect((await t.app.inject({ method: 'GET', url: `${link.url.split('?')[0]}?ticket=nonsense` })).json().code).toBe(
      7004,
    );
    clock.advance(DOWNLOAD_LINK_TTL_S * 1000);
    expect((await t.app.inject({ method: 'GET', url: link.url })).json().code).toBe(7004);
  });
});
