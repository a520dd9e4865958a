import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PRECOMPRESS_MIN_BYTES, precompressDir } from './precompress';

describe('precompressing the build', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes .br and .gz beside each text asset above the size bound, which decompress to the original', () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    dirs.push(dist);
    mkdirSync(path.join(dist, 'assets'));
    const big = `export const text = ${JSON.stringify('the console '.repeat(200))};`;
    const small = 'a'.repeat(PRECOMPRESS_MIN_BYTES - 1);
    writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), big);
    writeFileSync(path.join(dist, 'index.html'), `<html>${'<p></p>'.repeat(300)}</html>`);
    writeFileSync(path.join(dist, 'assets', 'tiny-Ab12Cd34.css'), small);
    writeFileSync(path.join(dist, 'assets', 'logo-Ab12Cd34.png'), Buffer.alloc(4096, 7));

    const done = precompressDir(dist)
      .map((f) => path.relative(dist, f))
      .sort();
    expect(done).toEqual([path.join('assets', 'index-Ab12Cd34.js'), 'index.html']);

    const js = path.join(dist, 'assets', 'index-Ab12Cd34.js');
    const br = readFileSync(`${js}.br`);
    const gz = readFileSync(`${js}.gz`);
    expect(br.length).toBeLessThan(big.length / 4);
    expect(brotliDecompressSync(br).toString()).toBe(big);
    expect(gunzipSync(gz).toString()).toBe(big);
    expect(existsSync(path.join(dist, 'assets', 'tiny-Ab12Cd34.css.br'))).toBe(false);
    expect(existsSync(path.join(dist, 'assets', 'logo-Ab12Cd34.png.gz'))).toBe(false);
  });
});
