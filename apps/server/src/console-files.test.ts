import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/helpers';

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('the built console: precompressed files, caching, a rebuild without a restart', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  const indexHtml = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;
  const script = `console.log(${JSON.stringify('the console '.repeat(300))});`;
  const style = `body { color: red; }`; // below the size worth compressing: no .br or .gz beside it
  let t: Awaited<ReturnType<typeof createTestApp>>;

  /** What the build writes: each file, and its brotli and gzip copies. */
  function writeBuilt(relative: string, text: string, compressed: boolean): void {
    const file = path.join(dist, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (!compressed) return;
    writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(text)));
    writeFileSync(`${file}.gz`, gzipSync(Buffer.from(text)));
  }

  beforeAll(async () => {
    writeBuilt('index.html', indexHtml, true);
    writeBuilt('assets/index-Ab12Cd34.js', script, true);
    writeBuilt('assets/small-Zz98Yy76.css', style, false);
    t = await createTestApp({ config: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends brotli first, then gzip, else the file itself, each with its own type, Vary and immutable caching', async () => {
    const br = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    for (const plain of [await get('/assets/index-Ab12Cd34.js'), await get('/assets/index-Ab12Cd34.js', 'identity')]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['vary']).toMatch(/accept-encoding/i);
      expect(plain.headers['cache-control']).toBe(IMMUTABLE);
      expect(plain.body).toBe(script);
    }
  });

  it('sends a small file without a compressed copy as it is, still immutable', async () => {
    const res = await get('/assets/small-Zz98Yy76.css', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body).toBe(style);
  });

  it('sends the page at /, at index.html and for any console path with no-cache, compressed when accepted', async () => {
    for (const url of ['/', '/index.html', '/proxies/static', '/security?tab=ip']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(indexHtml);
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.body, url).toBe(indexHtml);
    }
  });

  it('answers 404 for a missing build file, compressed or not, and never the page', async () => {
    for (const encoding of [undefined, 'br, gzip']) {
      const res = await get('/assets/index-Gone0000.js', encoding);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toMatchObject({ data: { error: 'NOT_FOUND' } });
    }
  });

  it('serves a rebuilt console without a restart, and drops the files the rebuild removed', async () => {
    const newScript = `console.log(${JSON.stringify('the rebuilt console '.repeat(300))});`;
    writeBuilt('assets/index-Ef56Gh78.js', newScript, true);
    rmSync(path.join(dist, 'assets/small-Zz98Yy76.css'));
    const res = await get('/assets/index-Ef56Gh78.js', 'br');
    expect(res.statusCode).toBe(200);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(newScript);
    expect((await get('/assets/small-Zz98Yy76.css')).statusCode).toBe(404);
  });

  it('keeps API answers uncached and uncompressed by the console rules', async () => {
    const res = await get('/api/site/settings', 'br');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
