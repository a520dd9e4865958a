import type { TPluginGrantPayload, TPluginRefusal } from '@proxy/contract/plugin-protocol';

/** The proxy the extension puts into the browser (from a verified grant). */
export type TProxySettings = {
  token_id: number;
  host: string;
  port: number;
  username: string;
  password: string;
  area: { country: string; state: string; city: string };
  expires_at: string;
};

/**
 * Everything the extension keeps (chrome.storage.local): the proxy, whether it
 * is on, the sites that go direct, the popup's language choice. Never the
 * console's session.
 */
export type TStoredSettings = {
  enabled: boolean;
  proxy: TProxySettings | null;
  bypass: string[];
  /** 'auto' follows the browser's language. */
  lang: 'auto' | 'zh' | 'en';
  /** Tests only: proxy loopback addresses too (Chromium never does by default). */
  devProxyLoopback: boolean;
};

/** Settings of a fresh install. */
export const DEFAULT_SETTINGS: TStoredSettings = {
  enabled: false,
  proxy: null,
  bypass: [],
  lang: 'auto',
  devProxyLoopback: false,
};

/** Most entries in the per-site bypass list. */
export const BYPASS_MAX = 100;

// A DNS name (labels of letters, digits and hyphens) or an IPv4 address.
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
// A bracketed IPv6 address.
const HOST_V6 = /^\[[0-9a-f:.]+\]$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** True for a host name, an IPv4 address or a bracketed IPv6 address. */
export function isValidHost(host: string): boolean {
  return HOST.test(host) || HOST_V6.test(host);
}

function isCredential(text: unknown): text is string {
  return (
    typeof text === 'string' && text.length > 0 && text.length <= 256 && !CONTROL.test(text) && !text.includes(':')
  );
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max && !CONTROL.test(value);
}

/**
 * Checks a grant's payload field by field. SOCKS5 is refused first, before
 * anything else is looked at or changed: Chromium cannot authenticate to a
 * SOCKS5 proxy. Answers the proxy to set, or the refusal.
 */
export function proxyFromPayload(
  payload: unknown,
): { ok: true; proxy: TProxySettings } | { ok: false; reason: TPluginRefusal } {
  if (!payload || typeof payload !== 'object') return { ok: false, reason: 'bad-grant' };
  const p = payload as Partial<TPluginGrantPayload>;
  if (p.network === 'SOCKS5') return { ok: false, reason: 'socks5-unsupported' };
  if (p.v !== 1 || p.network !== 'HTTP') return { ok: false, reason: 'bad-grant' };
  const area = p.area as Partial<TPluginGrantPayload['area']> | undefined;
  const isValid =
    Number.isSafeInteger(p.token_id) &&
    (p.token_id as number) > 0 &&
    typeof p.host === 'string' &&
    isValidHost(p.host) &&
    Number.isInteger(p.port) &&
    (p.port as number) >= 1 &&
    (p.port as number) <= 65535 &&
    isCredential(p.username) &&
    isCredential(p.password) &&
    !!area &&
    isText(area.country, 100) &&
    isText(area.state, 100) &&
    isText(area.city, 100) &&
    isText(p.expires_at, 40);
  if (!isValid) return { ok: false, reason: 'bad-grant' };
  return {
    ok: true,
    proxy: {
      token_id: p.token_id!,
      host: p.host!,
      port: p.port!,
      username: p.username!,
      password: p.password!,
      area: { country: area.country!, state: area.state!, city: area.city! },
      expires_at: p.expires_at!,
    },
  };
}

/**
 * One entry of the per-site bypass list as Chromium's bypass rules take it:
 * a host ("example.com"), every subdomain ("*.example.com"), optionally with a
 * port. A URL typed by the user is reduced to its host. Null when it is none of these.
 */
export function normalizeBypassEntry(text: string): string | null {
  let entry = text.trim().toLowerCase();
  if (entry === '') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(entry)) {
    try {
      entry = new URL(entry).host;
    } catch {
      return null;
    }
  }
  const match = /^(\*\.)?([^:/\s]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(entry);
  if (!match) return null;
  const [, wildcard = '', host, port] = match;
  if (!isValidHost(host)) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  return `${wildcard}${host}${port !== undefined ? `:${Number(port)}` : ''}`;
}

/** The stored settings with anything unknown or malformed replaced by the defaults. */
export function readSettings(stored: Record<string, unknown>): TStoredSettings {
  const proxy = stored.proxy ? proxyFromPayload({ ...(stored.proxy as object), v: 1, network: 'HTTP' }) : undefined;
  const bypass = Array.isArray(stored.bypass)
    ? stored.bypass
        .map((b) => (typeof b === 'string' ? normalizeBypassEntry(b) : null))
        .filter((b): b is string => b !== null)
    : [];
  return {
    enabled: stored.enabled === true && proxy?.ok === true,
    proxy: proxy?.ok ? proxy.proxy : null,
    bypass: [...new Set(bypass)].slice(0, BYPASS_MAX),
    lang: stored.lang === 'zh' || stored.lang === 'en' ? stored.lang : 'auto',
    devProxyLoopback: stored.devProxyLoopback === true,
  };
}

/** The bypass rule of the console's origin ("https://console.example.com:443"): the console always talks to its API directly. */
export function originBypassRule(origin: string): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${url.hostname}:${port}`;
}

/**
 * The value of chrome.proxy.settings for the stored settings: the proxy as
 * Chromium's fixed servers, bypassing the console's origin, the user's sites
 * and (tests only) nothing on loopback; or the system's settings when off.
 */
export function proxyConfigOf(settings: TStoredSettings, consoleOrigin: string): chrome.proxy.ProxyConfig {
  if (!settings.enabled || !settings.proxy) return { mode: 'system' };
  // Chromium lets a later rule override an earlier one: "<-loopback>" goes first, so the console's origin still goes direct.
  const bypassList = [
    ...(settings.devProxyLoopback ? ['<-loopback>'] : []),
    originBypassRule(consoleOrigin),
    ...settings.bypass,
  ];
  return {
    mode: 'fixed_servers',
    rules: {
      singleProxy: { scheme: 'http', host: settings.proxy.host.replace(/^\[|\]$/g, ''), port: settings.proxy.port },
      bypassList,
    },
  };
}
