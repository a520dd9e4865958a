import path from 'node:path';
import { PLUGIN_ZIP_NAME } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { RawReply, type THandlersOf } from '../../lib/routing';
import { loadPluginSigningKey } from './plugin-keys';
import { buildPluginZip, DEFAULT_PLUGIN_DIST, extensionIdOf, readBuiltManifest } from './plugin-package';
import { createGrant } from './plugin.service';

/**
 * The browser plugin: its info, the zip of the current build set to this
 * console (read per request, so a rebuilt plugin is served without a
 * restart), and the grants it takes proxies from.
 */
export function createPluginHandlers(deps: TDeps): THandlersOf<'plugin'> {
  const key = loadPluginSigningKey(deps.config.PLUGIN_SIGNING_KEY, deps.config.DATA_DIR);
  const distDir = path.resolve(deps.config.PLUGIN_DIST_DIR ?? DEFAULT_PLUGIN_DIST);
  const packageSettings = {
    consoleOrigin: new URL(deps.config.publicUrl).origin,
    publicKeyBase64: key.publicKeyBase64,
    echoUrl: deps.config.tokenTestEchoUrl,
  };
  return {
    pluginInfo: async () => {
      const manifest = readBuiltManifest(distDir);
      const zip = manifest ? buildPluginZip(distDir, packageSettings) : null;
      return {
        available: zip !== null,
        version: manifest?.version ?? null,
        extension_id: manifest ? extensionIdOf(manifest.key) : null,
        size: zip?.byteLength ?? null,
        file_name: PLUGIN_ZIP_NAME,
      };
    },
    pluginDownload: async () => {
      const zip = buildPluginZip(distDir, packageSettings);
      if (!zip) throw new AppError('NOT_AVAILABLE');
      return new RawReply(Buffer.from(zip), 'application/zip', PLUGIN_ZIP_NAME);
    },
    pluginGrant: async ({ input, user, lang }) => createGrant(deps, key, user.id, input.token_id, lang),
  };
}
