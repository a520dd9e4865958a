/**
 * The browser plugin's protocol (spec sections 1, 2 and 4, plugin setup):
 * what the console sends the extension and what it answers, and the grant the
 * server signs. No runtime dependency: the extension bundles this file alone
 * (`@proxy/contract/plugin-protocol`).
 */

/** Seconds a grant signed by the server stays valid: the console sends it at once. */
export const PLUGIN_GRANT_TTL_S = 120;

/** Milliseconds the console waits for the extension's answer before it shows the timeout state. */
export const PLUGIN_ANSWER_TIMEOUT_MS = 5000;

/** The states of a plugin setup (spec section 4). */
export const PLUGIN_SETUP_STATES = ['configuring', 'success', 'error', 'timeout'] as const;
/** A plugin setup state. */
export type TPluginSetupState = (typeof PLUGIN_SETUP_STATES)[number];

/** Why the extension refuses a setting (the console shows each in the user's language). */
export const PLUGIN_REFUSALS = [
  /** Chromium cannot authenticate to a SOCKS5 proxy. */
  'socks5-unsupported',
  /** The message did not come from the console's own origin. */
  'wrong-origin',
  /** The grant is malformed or its signature does not verify with the server's public key. */
  'bad-grant',
  /** The grant's time has passed (or it is dated in the future). */
  'expired-grant',
  /** The message is not one the extension knows. */
  'bad-message',
  /** The browser refused the proxy setting (another extension or a policy controls it). */
  'proxy-not-controllable',
] as const;
/** A refusal of the extension. */
export type TPluginRefusal = (typeof PLUGIN_REFUSALS)[number];

/**
 * What the server signs for one proxy of the signed-in user: the proxy's
 * settings, the console's origin, and the validity window (seconds since the
 * epoch). Serialised as JSON, then `base64url(json) + "." + base64url(Ed25519 signature of the first part)`.
 */
export type TPluginGrantPayload = {
  v: 1;
  /** The console's origin (PUBLIC_URL): the only origin the grant is good for. */
  origin: string;
  token_id: number;
  network: 'HTTP' | 'SOCKS5';
  host: string;
  port: number;
  username: string;
  password: string;
  /** Area names for the popup ('' when not set). */
  area: { country: string; state: string; city: string };
  /** The proxy's expiry (ISO 8601). */
  expires_at: string;
  iat: number;
  exp: number;
};

/** What the console sends the extension (chrome.runtime.sendMessage to its id). */
export type TPluginRequest = { type: 'hello' } | { type: 'apply'; grant: string };

/** What the extension answers. */
export type TPluginAnswer =
  | { ok: true; type: 'hello'; version: string; active_token_id: number | null }
  | { ok: true; type: 'apply'; version: string; token_id: number }
  | { ok: false; reason: TPluginRefusal };

/** The file name of the download. */
export const PLUGIN_ZIP_NAME = 'proxyhub-browser-plugin.zip';
