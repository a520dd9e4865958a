import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { buyOk, createUser, creditFen, request, seedProxyStartup, type TTestUser } from '../proxies/proxies-test-kit';
import { loadPluginSigningKey } from './plugin-keys';
import { extensionIdOf } from './plugin-package';

const PUBLIC_URL = 'https://console.example.com';
const REPO_KEY = readFileSync(
  fileURLToPath(new URL('../../../../browser-plugin/extension-key.txt', import.meta.url)),
  'utf8',
).trim();

/** A built extension as `npm run build` leaves it (the manifest with the fixed key, scripts, the popup). */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugin-dist-'));
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'ProxyHub',
      version: '1.2.3',
      key: REPO_KEY,
      externally_connectable: { matches: ['http://127.0.0.1/*'] },
    }),
  );
  writeFileSync(path.join(dir, 'background.js'), '// worker');
  mkdirSync(path.join(dir, 'icons'));
  writeFileSync(path.join(dir, 'icons', 'a.txt'), 'x');
  return dir;
}

function decodeGrant(grant: string) {
  const [body, signature] = grant.split('.');
  return {
    body,
    signature: Buffer.from(signature, 'base64url'),
    payload: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')),
  };
}

describe('the browser plugin', () => {
  const clock = createFakeClock(new Date('2026-04-01T00:00:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let httpId: number;
  let socksId: number;
  beforeAll(async () => {
    t = await createTestApp({
      clock,
      mailer,
      config: { PUBLIC_URL, PLUGIN_DIST_DIR: fakeBuild(), GATEWAY_PUBLIC_HOST: 'gw.test', GATEWAY_PUBLIC_PORT: '7000' },
    });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 100_000);
    httpId = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    socksId = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'SOCKS5', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('derives the id Chromium gives the extension from the fixed key', () => {
    expect(extensionIdOf(REPO_KEY)).toMatch(/^[a-p]{32}$/);
    // SHA-256("abc") starts ba7816bf 8f01cfea 414140de 5dae2223; each hex digit 0-f becomes a letter a-p.
    expect(extensionIdOf(Buffer.from('abc').toString('base64'))).toBe('lkhibglpipabmpokebebeanofnkocccd');
  });

  it('tells the version, id and size of the current build', async () => {
    const res = await request(t.app, 'GET', '/plugin/info');
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        available: true,
        version: '1.2.3',
        extension_id: extensionIdOf(REPO_KEY),
        size: expect.any(Number),
        file_name: 'proxyhub-browser-plugin.zip',
      },
    });
  });

  it('serves the build as a zip set to this console: its origin, its public key, the echo', async () => {
    const res = await request(t.app, 'GET', '/plugin/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('proxyhub-browser-plugin.zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['background.js', 'config.json', 'icons/a.txt', 'manifest.json']);
    const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString());
    expect(manifest.externally_connectable).toEqual({ matches: ['https://console.example.com/*'] });
    expect(manifest.key).toBe(REPO_KEY);
    const config = JSON.parse(Buffer.from(files['config.json']).toString());
    expect(config).toEqual({
      console_origin: PUBLIC_URL,
      public_key: expect.any(String),
      echo_url: `${PUBLIC_URL}/api/proxy/echo`,
    });
    expect(Number((await request(t.app, 'GET', '/plugin/info')).json().data.size)).toBe(res.rawPayload.byteLength);
  });

  it('signs a short-lived grant for the user own HTTP proxy, checkable with the packaged public key', async () => {
    const files = unzipSync(new Uint8Array((await request(t.app, 'GET', '/plugin/download')).rawPayload));
    const publicKey = createPublicKey({
      key: Buffer.from(JSON.parse(Buffer.from(files['config.json']).toString()).public_key, 'base64'),
      format: 'der',
      type: 'spki',
    });
    const res = await request(t.app, 'POST', '/plugin/grant', { token: ann.token, body: { token_id: httpId } });
    expect(res.json().code, res.body).toBe(0);
    const { body, signature, payload } = decodeGrant(res.json().data.grant);
    expect(verify(null, Buffer.from(body), publicKey, signature)).toBe(true);
    const nowS = Math.floor(clock.now().getTime() / 1000);
    expect(payload).toMatchObject({
      v: 1,
      origin: PUBLIC_URL,
      token_id: httpId,
      network: 'HTTP',
      host: 'gw.test',
      port: 7000,
      iat: nowS,
      exp: nowS + 120,
    });
    expect(payload.username).toMatch(/^u/);
    expect(res.json().data.expires_at).toBe(new Date((nowS + 120) * 1000).toISOString());
  });

  it('refuses a SOCKS5 proxy with the reason, in both languages', async () => {
    const en = await request(t.app, 'POST', '/plugin/grant', {
      token: ann.token,
      body: { token_id: socksId },
      lang: 'en',
    });
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      code: 4301,
      msg: expect.stringContaining('Chromium cannot send a username and password to a SOCKS5 proxy'),
    });
    const zh = await request(t.app, 'POST', '/plugin/grant', {
      token: ann.token,
      body: { token_id: socksId },
      lang: 'zh',
    });
    expect(zh.json().msg).toContain('不支持 SOCKS5');
  });

  it("answers 404 for another user's proxy and for none", async () => {
    expect(
      (await request(t.app, 'POST', '/plugin/grant', { token: ben.token, body: { token_id: httpId } })).statusCode,
    ).toBe(404);
    expect(
      (await request(t.app, 'POST', '/plugin/grant', { token: ann.token, body: { token_id: 999_999 } })).statusCode,
    ).toBe(404);
  });

  it('answers 404 for a deleted proxy', async () => {
    const id = (
      await buyOk(t.app, ann.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 })
    ).tokens[0].token_id;
    expect((await request(t.app, 'DELETE', `/token/${id}`, { token: ann.token })).json().code).toBe(0);
    expect(
      (await request(t.app, 'POST', '/plugin/grant', { token: ann.token, body: { token_id: id } })).statusCode,
    ).toBe(404);
  });

  it.each([{}, { token_id: '5' }, { token_id: 0 }, { token_id: 1.5 }, { token_id: -3 }])(
    'refuses the body %j with a clear message in both languages',
    async (body) => {
      const en = await request(t.app, 'POST', '/plugin/grant', { token: ann.token, body, lang: 'en' });
      expect(en.statusCode).toBe(400);
      expect(en.json().data.issues[0].path).toBe('token_id');
      const zh = await request(t.app, 'POST', '/plugin/grant', { token: ann.token, body, lang: 'zh' });
      expect(zh.json().data.issues[0].message).toMatch(/[\u4e00-\u9fff]/);
    },
  );

  it('needs a signed-in user for a grant', async () => {
    expect((await request(t.app, 'POST', '/plugin/grant', { body: { token_id: httpId } })).statusCode).toBe(401);
  });
});

describe('the plugin without a build', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ config: { PLUGIN_DIST_DIR: path.join(tmpdir(), 'no-plugin-build') } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('says it is not available, and the download answers 501 in the envelope', async () => {
    expect((await request(t.app, 'GET', '/plugin/info')).json().data).toMatchObject({
      available: false,
      version: null,
      extension_id: null,
      size: null,
    });
    const res = await request(t.app, 'GET', '/plugin/download', { lang: 'en' });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ code: 501, msg: 'This feature is not available yet' });
  });
});

describe('the grant signing key', () => {
  it('is created once in the data folder and kept', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plugin-key-'));
    const first = loadPluginSigningKey(undefined, dir);
    expect(loadPluginSigningKey(undefined, dir).publicKeyBase64).toBe(first.publicKeyBase64);
  });

  it('takes a configured PEM and refuses a key that is not Ed25519', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(loadPluginSigningKey(pem, '/nonexistent').publicKeyBase64).toMatch(/^[A-Za-z0-9+/=]+$/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => loadPluginSigningKey(rsa, '/nonexistent')).toThrow(/Ed25519/);
  });
});
