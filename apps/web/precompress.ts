import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files below this size gain nothing from compression and are served as they are. */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Text-like build outputs worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm|ico)$/i;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : entry.isFile() ? [full] : [];
  });
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * file of `dir` of at least PRECOMPRESS_MIN_BYTES, once at build time, so the server sends them
 * as they are. Returns the files it compressed.
 */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const file of listFiles(dir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < PRECOMPRESS_MIN_BYTES) continue;
    const bytes = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    done.push(file);
  }
  return done;
}

/** Vite plugin: precompresses the build output once it is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // A failed build may leave no output folder: nothing to compress then.
      if (existsSync(outDir)) precompressDir(outDir);
    },
  };
}
