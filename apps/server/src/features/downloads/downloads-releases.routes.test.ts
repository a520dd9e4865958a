import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEntries, softwareReleaseFiles, softwareReleases, users } from '@proxy/db';
import { createMemoryMailer, createTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { sha256Hex, startFileOrigin, type TFileOrigin } from './downloads-test-kit';

const WINDOWS = Buffer.from('MZ'.padEnd(5000, 'windows installer bytes '));
const MAC = Buffer.from('mac disk image bytes '.repeat(300));
// Larger than one read of the socket: a stated size below its Content-Length is refused before reading it.
const BIG = Buffer.alloc(1024 * 1024, 7);

// The operator publishes releases whose files the API fetched from their links and checked (size, SHA-256);
// customers who topped up see them. The origin is a real HTTP server on 127.0.0.1 (DOWNLOAD_ALLOW_PRIVATE).
describe('software releases published by the operator', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let origin: TFileOrigin;
  let oper: TTestUser;
  let buyer: TTestUser;
  let auditMark = 0;

  const windowsFile = (overrides: Record<string, unknown> = {}) => ({
    platform: 'windows',
    arch: 'x64',
    url: origin.url('/files/ProxyHub-2.0.0-x64.exe'),
    size: WINDOWS.length,
    sha256: sha256Hex(WINDOWS).toUpperCase(),
    ...overrides,
  });
  const release = (overrides: Record<string, unknown> = {}) => ({
    version: '2.0.0',
    released_on: '2026-04-02',
    notes_zh: '全新界面。',
    notes_en: 'A new interface.',
    files: [windowsFile()],
    ...overrides,
  });
  const publish = (body: object, lang = 'en', token = oper.token) =>
    request(t.app, 'POST', '/admin/downloads/releases', { token, body, lang });
  const stored = async () => ({
    releases: await t.db.db.select().from(softwareReleases),
    files: await t.db.db.select().from(softwareReleaseFiles),
  });
  const auditOf = async (route: string) =>
    (
      await t.db.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.route, route), gt(auditEntries.id, auditMark)))
        .orderBy(auditEntries.id)
    ).map((e) => ({
      result: e.result,
      errorCode: e.errorCode,
      targetId: e.targetId,
    }));
  const customerList = async (lang = 'en') =>
    (await request(t.app, 'GET', '/tools/software/list', { token: buyer.token, lang })).json();

  beforeAll(async () => {
    origin = await startFileOrigin({ 'ProxyHub-2.0.0-x64.exe': WINDOWS, 'ProxyHub-2.0.0.dmg': MAC, 'big.bin': BIG });
    t = await createTestApp({
      mailer,
      config: { DOWNLOAD_ALLOW_PRIVATE: 'true', DOWNLOAD_FETCH_TIMEOUT_MS: '1500' },
    });
    oper = await createAdmin(t.app, t.deps, mailer, 'releaser');
    buyer = await createUser(t.app, mailer, 'relbuyer');
    await t.db.db.update(users).set({ totalRechargeFen: 1000 }).where(eq(users.id, buyer.userId));
  });
  afterAll(async () => {
    await t?.close();
    await origin?.close();
  });
  beforeEach(async () => {
    await t.db.db.delete(softwareReleases);
    // Audit entries cannot be deleted: each test reads those after its start.
    auditMark = (await t.db.db.select({ id: auditEntries.id }).from(auditEntries)).reduce(
      (m, e) => Math.max(m, e.id),
      0,
    );
    t.deps.config.DOWNLOAD_ALLOW_PRIVATE = true;
  });

  it('publishes a release whose file matches its size and SHA-256; a customer who topped up sees it with the link, newest date first', async () => {
    // An older release published first is listed after the newer one; a redirect to the file is followed.
    const older = await publish(
      release({
        version: '1.9.0',
        released_on: '2026-03-01',
        files: [
          {
            platform: 'macos',
            arch: '',
            url: origin.url('/moved/ProxyHub-2.0.0.dmg'),
            size: MAC.length,
            sha256: sha256Hex(MAC),
          },
        ],
      }),
    );
    expect(older.json().code, older.body).toBe(0);
    const res = await publish(release());
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data).toMatchObject({
      version: '2.0.0',
      released_on: '2026-04-02',
      created_by: oper.userId,
      files: [{ platform: 'windows', arch: 'x64', size: WINDOWS.length, sha256: sha256Hex(WINDOWS) }],
    });
    expect(origin.requests).toContain('/files/ProxyHub-2.0.0-x64.exe');

    const list = await customerList('zh');
    expect(list.data).toEqual({
      status: 'ok',
      name: null,
      releases: [
        {
          version: '2.0.0',
          date: '2026-04-02',
          notes: '全新界面。',
          files: [
            {
              platform: 'windows',
              arch: 'x64',
              file: 'ProxyHub-2.0.0-x64.exe',
              size: WINDOWS.length,
              sha256: sha256Hex(WINDOWS),
              is_available: true,
              url: origin.url('/files/ProxyHub-2.0.0-x64.exe'),
            },
          ],
        },
        {
          version: '1.9.0',
          date: '2026-03-01',
          notes: '全新界面。',
          files: [
            {
              platform: 'macos',
              arch: null,
              file: 'ProxyHub-2.0.0.dmg',
              size: MAC.length,
              sha256: sha256Hex(MAC),
              is_available: true,
              url: origin.url('/moved/ProxyHub-2.0.0.dmg'),
            },
          ],
        },
      ],
    });
    expect((await customerList('en')).data.releases[0].notes).toBe('A new interface.');
    // The operator's list has both, the same order.
    const admin = await request(t.app, 'GET', '/admin/downloads/releases', { token: oper.token });
    expect(admin.json().data.map((r: { version: string }) => r.version)).toEqual(['2.0.0', '1.9.0']);
    expect(await auditOf('adminSoftwareReleaseCreate')).toEqual([
      { result: 'ok', errorCode: null, targetId: null },
      { result: 'ok', errorCode: null, targetId: null },
    ]);
    // The role gate is unchanged: a customer without a top-up above 1 yuan is refused.
    const newcomer = await createUser(t.app, mailer, 'relnew');
    expect((await request(t.app, 'GET', '/tools/software/list', { token: newcomer.token })).json().code).toBe(7001);
  });

  it('refuses a wrong SHA-256 with the value found, in en and zh, and stores nothing', async () => {
    const wrong = 'ab'.repeat(32);
    const en = await publish(release({ files: [windowsFile({ sha256: wrong })] }));
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      code: 7005,
      msg: `The file at the link has SHA-256 ${sha256Hex(WINDOWS)}, not ${wrong} as given`,
      data: { error: 'SOFTWARE_FILE_MISMATCH', issues: [{ path: 'files.0.sha256' }] },
    });
    // Two refused files: both are named, each under its own fields.
    const both = await publish(
      release({
        files: [
          windowsFile({ sha256: wrong }),
          windowsFile({ platform: 'linux', url: origin.url('/files/nothing.AppImage') }),
        ],
      }),
    );
    expect(both.json().data.issues.map((i: { path: string }) => i.path)).toEqual(['files.0.sha256', 'files.1.url']);
    const zh = await publish(release({ files: [windowsFile({ sha256: wrong })] }), 'zh');
    expect(zh.json().msg).toBe(`链接处文件的 SHA-256 为 ${sha256Hex(WINDOWS)}，与填写的 ${wrong} 不符`);
    expect(await stored()).toEqual({ releases: [], files: [] });
    expect(await auditOf('adminSoftwareReleaseCreate')).toEqual([
      { result: 'error', errorCode: 'SOFTWARE_FILE_MISMATCH', targetId: null },
      { result: 'error', errorCode: 'SOFTWARE_FILE_MISMATCH', targetId: null },
      { result: 'error', errorCode: 'SOFTWARE_FILE_MISMATCH', targetId: null },
    ]);
  });

  it('refuses a wrong size, and a file larger than stated (by its length, or read up to the cap), storing nothing', async () => {
    const bigger = await publish(release({ files: [windowsFile({ size: WINDOWS.length + 10 })] }));
    expect(bigger.json()).toMatchObject({
      code: 7005,
      msg: `The file at the link is ${WINDOWS.length} bytes, not the ${WINDOWS.length + 10} bytes given`,
      data: { issues: [{ path: 'files.0.size' }] },
    });
    const smaller = await publish(
      release({ files: [windowsFile({ url: origin.url('/files/big.bin'), size: 100, sha256: sha256Hex(BIG) })] }),
    );
    expect(smaller.json()).toMatchObject({
      code: 7005,
      msg: `The file at the link is larger than the 100 bytes given (at least ${BIG.length} bytes); the download was stopped`,
    });
    // Without a Content-Length the stream is cut once it passes the stated size.
    const chunked = await publish(
      release({ files: [windowsFile({ url: origin.url('/chunked/big.bin'), size: 100 })] }),
      'zh',
    );
    expect(chunked.json().code).toBe(7005);
    expect(chunked.json().msg).toMatch(/^链接处的文件大于填写的 100 字节（至少 \d+ 字节），已停止下载$/);
    expect(Number(/至少 (\d+)/.exec(chunked.json().msg)![1])).toBeLessThan(BIG.length);
    expect(await stored()).toEqual({ releases: [], files: [] });
  });

  it('refuses a link that answers 404, that does not answer in time, or that points to a private address without the allowance', async () => {
    const missing = await publish(release({ files: [windowsFile({ url: origin.url('/files/nothing.exe') })] }));
    expect(missing.json()).toMatchObject({
      code: 7006,
      msg: 'The file at the link could not be fetched: the server answered HTTP 404',
      data: { issues: [{ path: 'files.0.url' }] },
    });
    const stalled = await publish(release({ files: [windowsFile({ url: origin.url('/stall') })] }), 'zh');
    expect(stalled.json()).toMatchObject({ code: 7006, msg: '无法获取链接处的文件：2 秒内未下载完成' });

    t.deps.config.DOWNLOAD_ALLOW_PRIVATE = false;
    const before = origin.requests.length;
    const loopback = await publish(release());
    expect(loopback.json()).toMatchObject({
      code: 7007,
      msg: 'The link points to a loopback, private or link-local address (127.0.0.1); use a public address',
      data: { issues: [{ path: 'files.0.url' }] },
    });
    // A name that resolves to loopback is refused when it is resolved, before any connection.
    const byName = await publish(
      release({
        files: [windowsFile({ url: origin.url('/files/ProxyHub-2.0.0-x64.exe').replace('127.0.0.1', 'localhost') })],
      }),
    );
    expect(byName.json().code).toBe(7007);
    expect(byName.json().msg).toMatch(/\((127\.0\.0\.1|::1)\)/);
    expect(origin.requests.length).toBe(before);
    expect(await stored()).toEqual({ releases: [], files: [] });
    expect((await auditOf('adminSoftwareReleaseCreate')).map((e) => e.errorCode)).toEqual([
      'SOFTWARE_FILE_UNREACHABLE',
      'SOFTWARE_FILE_UNREACHABLE',
      'SOFTWARE_URL_REFUSED',
      'SOFTWARE_URL_REFUSED',
    ]);
  });

  it('refuses bad input and a version already published (any letter case)', async () => {
    const bad = await publish(
      release({ version: '', files: [windowsFile({ url: 'ftp://x/y', sha256: 'zz' }), windowsFile()] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['version', 'files.0.url', 'files.0.sha256', 'files.1.arch']),
    );
    expect((await publish(release())).json().code).toBe(0);
    const again = await publish(release({ version: '2.0.0' }), 'en');
    expect(again.json()).toMatchObject({
      code: 7008,
      msg: expect.stringContaining('Version 2.0.0 is already published'),
    });
    expect((await stored()).releases).toHaveLength(1);
  });

  it('adds and removes a file of a release (checked the same way), keeps the last file, deletes a release', async () => {
    const created = (await publish(release())).json().data;
    const addUrl = `/admin/downloads/releases/${created.id}/files`;
    const mac = {
      platform: 'macos',
      arch: 'universal',
      url: origin.url('/files/ProxyHub-2.0.0.dmg'),
      size: MAC.length,
    };
    const wrong = await request(t.app, 'POST', addUrl, {
      token: oper.token,
      body: { ...mac, sha256: sha256Hex(WINDOWS) },
      lang: 'en',
    });
    expect(wrong.json()).toMatchObject({ code: 7005, data: { issues: [{ path: 'sha256' }] } });
    expect((await stored()).files).toHaveLength(1);
    const added = await request(t.app, 'POST', addUrl, { token: oper.token, body: { ...mac, sha256: sha256Hex(MAC) } });
    expect(added.json().code, added.body).toBe(0);
    expect(added.json().data.files.map((f: { platform: string }) => f.platform)).toEqual(['windows', 'macos']);
    const twice = await request(t.app, 'POST', addUrl, { token: oper.token, body: { ...mac, sha256: sha256Hex(MAC) } });
    expect(twice.json().code).toBe(7012);
    expect((await customerList()).data.releases[0].files).toHaveLength(2);

    const [windows, macos] = added.json().data.files as { id: number }[];
    const removed = await request(t.app, 'DELETE', `${addUrl}/${windows.id}`, { token: oper.token });
    expect(removed.json().data.files.map((f: { id: number }) => f.id)).toEqual([macos.id]);
    const last = await request(t.app, 'DELETE', `${addUrl}/${macos.id}`, { token: oper.token, lang: 'en' });
    expect(last.json()).toMatchObject({ code: 7011, msg: expect.stringContaining('delete the release instead') });
    expect((await request(t.app, 'DELETE', `${addUrl}/${windows.id}`, { token: oper.token })).json().code).toBe(7010);

    const deleted = await request(t.app, 'DELETE', `/admin/downloads/releases/${created.id}`, { token: oper.token });
    expect(deleted.json()).toMatchObject({ code: 0, data: { id: created.id } });
    expect(await stored()).toEqual({ releases: [], files: [] });
    const gone = await request(t.app, 'DELETE', `/admin/downloads/releases/${created.id}`, { token: oper.token });
    expect(gone.json().code).toBe(7009);
    expect((await customerList()).data).toEqual({ status: 'not_published', name: null, releases: [] });
    expect(await auditOf('adminSoftwareReleaseDelete')).toEqual([
      { result: 'ok', errorCode: null, targetId: String(created.id) },
      { result: 'error', errorCode: 'SOFTWARE_RELEASE_NOT_FOUND', targetId: String(created.id) },
    ]);
    expect((await auditOf('adminSoftwareFileAdd')).map((e) => e.result)).toEqual(['error', 'ok', 'error']);
    expect((await auditOf('adminSoftwareFileRemove')).map((e) => e.result)).toEqual(['ok', 'error', 'error']);
  });

  it('reads the legacy manifest only while the database has no release', async () => {
    const dir = t.deps.config.downloadsDir;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'old.exe'), WINDOWS);
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        releases: [
          {
            version: '1.0.0',
            date: '2026-01-01',
            notes: { zh: '', en: '' },
            files: [{ platform: 'windows', file: 'old.exe' }],
          },
        ],
      }),
    );
    try {
      const legacy = await customerList();
      expect(legacy.data.releases.map((r: { version: string }) => r.version)).toEqual(['1.0.0']);
      expect(legacy.data.releases[0].files[0]).toMatchObject({ file: 'old.exe', url: null, is_available: true });
      const link = (
        await request(t.app, 'POST', '/tools/software/link', { token: buyer.token, body: { file: 'old.exe' } })
      ).json();
      expect(link.code).toBe(0);

      expect((await publish(release())).json().code).toBe(0);
      expect((await customerList()).data.releases.map((r: { version: string }) => r.version)).toEqual(['2.0.0']);
      const refused = await request(t.app, 'POST', '/tools/software/link', {
        token: buyer.token,
        body: { file: 'old.exe' },
      });
      expect(refused.json().code).toBe(7003);
      expect((await t.app.inject({ method: 'GET', url: link.data.url })).json().code).toBe(7003);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is for operators only: a customer gets 403 and nothing is fetched or stored', async () => {
    const before = origin.requests.length;
    const calls = [
      request(t.app, 'GET', '/admin/downloads/releases', { token: buyer.token }),
      publish(release(), 'en', buyer.token),
      request(t.app, 'DELETE', '/admin/downloads/releases/1', { token: buyer.token }),
      request(t.app, 'POST', '/admin/downloads/releases/1/files', { token: buyer.token, body: windowsFile() }),
      request(t.app, 'DELETE', '/admin/downloads/releases/1/files/1', { token: buyer.token }),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
    expect(origin.requests.length).toBe(before);
    expect(await stored()).toEqual({ releases: [], files: [] });
  });
});
