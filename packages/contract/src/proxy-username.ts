/**
 * Proxy usernames may carry options in the de-facto grammar
 * `USERNAME-country-us-state-ca-city-losangeles-session-abc123-sesstime-10`
 * (ARCHITECTURE.md, Proxies). The endpoint generator builds them; the gateway
 * parses them.
 */

/** Options a dynamic proxy username can carry. */
export type TProxyUserOptions = {
  country?: string;
  state?: string;
  city?: string;
  /** Sticky session id: keeps the same exit for `sesstime` minutes. */
  session?: string;
  /** Sticky minutes (1-120). */
  sesstime?: number;
};

/** A parsed username: the token's own username plus options. */
export type TParsedProxyUser = { username: string; options: TProxyUserOptions };

/** Longest sticky session. */
export const SESSTIME_MAX_MINUTES = 120;
const KEYS = ['country', 'state', 'city', 'session', 'sesstime'] as const;
const VALUE = /^[a-z0-9_]{1,64}$/i;

/** Parses a username with options; null when the options are malformed. */
export function parseProxyUsername(raw: string): TParsedProxyUser | null {
  const parts = raw.split('-');
  const username = parts[0];
  if (!username || parts.length % 2 !== 1) return parts.length === 1 && username ? { username, options: {} } : null;
  const options: TProxyUserOptions = {};
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i].toLowerCase() as (typeof KEYS)[number];
    const value = parts[i + 1];
    if (!KEYS.includes(key) || !VALUE.test(value) || key in options) return null;
    if (key === 'sesstime') {
      const minutes = Number(value);
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > SESSTIME_MAX_MINUTES) return null;
      options.sesstime = minutes;
    } else {
      options[key] = key === 'session' ? value : value.toLowerCase();
    }
  }
  return { username, options };
}

/** Builds a username with options (the endpoint generator's lines). */
export function formatProxyUsername(username: string, options: TProxyUserOptions = {}): string {
  let out = username;
  for (const key of KEYS) {
    const value = options[key];
    if (value === undefined || value === '') continue;
    out += `-${key}-${
      key === 'session'
        ? value
        : String(value)
            .toLowerCase()
            .replace(/[^a-z0-9_]/g, '')
    }`;
  }
  return out;
}
