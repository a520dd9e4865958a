import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

/** Where `npm run build` puts the unpacked extension (apps/browser-plugin/dist). */
export const DEFAULT_PLUGIN_DIST = fileURLToPath(new URL('../../../../browser-plugin/dist', import.meta.url));

/** What the served package is set to: this console's origin, its public key, the echo of "check my IP". */
export type TPackageSettings = { consoleOrigin: string; publicKeyBase64: string; echoUrl: string };

/** The extension's id as Chromium derives it from the manifest's key (the first 128 bits of its SHA-256, in letters a-p). */
export function extensionIdOf(keyBase64: string): string {
  const hex = createHash('sha256').update(Buffer.from(keyBase64, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((h) => String.fromCharCode(97 + parseInt(h, 16))).join('');
}

/** The built manifest, or null when the extension has not been built. */
export function readBuiltManifest(distDir: string): { version: string; key: string } | null {
  const file = path.join(distDir, 'manifest.json');
  if (!existsSync(file)) return null;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; key?: unknown };
    return typeof manifest.version === 'string' && typeof manifest.key === 'string'
      ? { version: manifest.version, key: manifest.key }
      : null;
  } catch {
    return null;
  }
}

function collectFiles(dir: string, prefix = ''): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, collectFiles(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(full);
  }
  return files;
}

/**
 * The zip of the current build, set to this console: the manifest lets only
 * the console's origin talk to the extension (externally_connectable), and
 * config.json carries the origin, the public key of grants and the echo URL.
 * Null when the extension has not been built.
 */
export function buildPluginZip(distDir: string, settings: TPackageSettings): Uint8Array | null {
  if (!readBuiltManifest(distDir)) return null;
  const files = collectFiles(distDir);
  const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString('utf8')) as Record<string, unknown>;
  manifest.externally_connectable = { matches: [`${settings.consoleOrigin}/*`] };
  const config = {
    console_origin: settings.consoleOrigin,
    public_key: settings.publicKeyBase64,
    echo_url: settings.echoUrl,
  };
  files['manifest.json'] = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  files['config.json'] = Buffer.from(`${JSON.stringify(config, null, 2)}\n`);
  // A fixed time for every entry: the same build and settings give the same bytes.
  return zipSync(files, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') });
}
