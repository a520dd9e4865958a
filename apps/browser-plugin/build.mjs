// Builds the unpacked extension into dist/: the bundled scripts, the popup's
// files and the manifest (version from package.json, the fixed key that makes
// the id stable). The server fills in the console's origin and its public key
// (config.json, externally_connectable) when it serves the zip.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: { background: path.join(here, 'src/background.ts'), popup: path.join(here, 'src/popup.ts') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'chrome120',
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
});

for (const file of readdirSync(path.join(here, 'static'))) {
  if (file !== 'manifest.json') copyFileSync(path.join(here, 'static', file), path.join(dist, file));
}
const manifest = JSON.parse(readFileSync(path.join(here, 'static/manifest.json'), 'utf8'));
manifest.version = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')).version;
manifest.key = readFileSync(path.join(here, 'extension-key.txt'), 'utf8').trim();
writeFileSync(path.join(dist, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
