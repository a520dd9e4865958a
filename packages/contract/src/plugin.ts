import { z } from 'zod';
import { defineRoute } from './route-def';
import { zJsonNumber } from './validators';

export * from './plugin-protocol';

/** Answer of GET /plugin/info: the built extension the server serves. */
export const ZPluginInfo = z.object({
  /** False when the extension has not been built (npm run build). */
  available: z.boolean(),
  /** The extension's version (manifest), null when not built. */
  version: z.string().nullable(),
  /** The extension's fixed id (from the key in its manifest), null when not built. */
  extension_id: z.string().nullable(),
  /** Size of the zip in bytes, null when not built. */
  size: z.number().int().nullable(),
  /** Name of the zip file. */
  file_name: z.string(),
});
/** Parsed plugin info. */
export type TPluginInfo = z.infer<typeof ZPluginInfo>;

/** Body of POST /plugin/grant. */
export const ZPluginGrantBody = z.object({
  token_id: zJsonNumber('invalidValue')
    .int({ error: 'invalidValue' })
    .positive({ error: 'invalidValue' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' }),
});

/** Answer of POST /plugin/grant: the signed grant the console hands the extension. */
export const ZPluginGrant = z.object({
  grant: z.string(),
  /** When the grant stops being accepted (ISO 8601). */
  expires_at: z.string(),
});

/** The browser plugin: its download, and the signed grant that lets it take a proxy from the console. */
export const PLUGIN_ROUTES = {
  pluginInfo: defineRoute({
    method: 'GET',
    path: '/plugin/info',
    auth: 'none',
    summary: "The browser plugin's version, id and download size",
    tag: 'plugin',
    output: ZPluginInfo,
  }),
  pluginDownload: defineRoute({
    method: 'GET',
    path: '/plugin/download',
    auth: 'none',
    summary: "Download the browser plugin (a zip of the unpacked extension, set to this console's address)",
    tag: 'plugin',
    isBlob: true,
  }),
  pluginGrant: defineRoute({
    method: 'POST',
    path: '/plugin/grant',
    auth: 'user',
    summary: 'Sign a short-lived grant for one of your HTTP proxies, for the browser plugin',
    tag: 'plugin',
    input: ZPluginGrantBody,
    output: ZPluginGrant,
  }),
};
