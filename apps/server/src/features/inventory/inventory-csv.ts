import countries from 'i18n-iso-countries';
import type { TExitKind, TNewExitNode } from './inventory.repository';

/** A line of an inventory file that cannot be imported, with its 1-based number. */
export type TCsvLineError = { line: number; message: string };

/** Outcome of parsing an inventory file: the nodes, or the bad lines. */
export type TParsedInventory = { nodes: TNewExitNode[]; errors: TCsvLineError[] };

const SLUG = /^[a-z0-9_]*$/;

/** Area slug as stored: lower case, spaces removed ("Los Angeles" -> "losangeles"); '-' is refused (the username grammar uses it). */
export function toAreaSlug(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '');
}

function parseEndpoint(
  field: string,
):
  { egress: 'http' | 'socks5'; host: string; port: number; username: string | null; password: string | null } | string {
  let rest = field.trim();
  let egress: 'http' | 'socks5' = 'http';
  const scheme = /^([a-z0-9]+):\/\//i.exec(rest);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (name !== 'http' && name !== 'socks5') return `unsupported scheme "${scheme[1]}" (http:// or socks5://)`;
    egress = name;
    rest = rest.slice(scheme[0].length);
  }
  let host: string;
  let tail: string[];
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) return 'unclosed [ in the IPv6 address';
    host = rest.slice(1, end);
    if (rest[end + 1] !== ':') return 'missing port';
    tail = rest.slice(end + 2).split(':');
  } else {
    const parts = rest.split(':');
    host = parts[0];
    tail = parts.slice(1);
  }
  if (!host || /[\s/@]/.test(host)) return 'missing or invalid host';
  const portText = tail[0] ?? '';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return 'port must be 1-65535';
  if (tail.length === 1)
    return { egress, host: host.toLowerCase(), port: Number(portText), username: null, password: null };
  if (tail.length < 3) return 'credentials must be user:pass';
  const username = tail[1];
  // The password may itself contain ':'.
  const password = tail.slice(2).join(':');
  if (!username) return 'empty username';
  return { egress, host: host.toLowerCase(), port: Number(portText), username, password };
}

/**
 * Parses an inventory CSV: one upstream proxy a line,
 * `[http://|socks5://]host:port[:user:pass],country,state,city` (state and
 * city may be empty). Blank lines and lines starting with # are skipped.
 */
export function parseInventoryCsv(text: string, kind: TExitKind): TParsedInventory {
  const nodes: TNewExitNode[] = [];
  const errors: TCsvLineError[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const fields = trimmed.split(',');
    if (fields.length < 2 || fields.length > 4) {
      errors.push({ line, message: 'expected host:port:user:pass,country,state,city' });
      return;
    }
    const endpoint = parseEndpoint(fields[0]);
    if (typeof endpoint === 'string') {
      errors.push({ line, message: endpoint });
      return;
    }
    const country = fields[1].trim().toLowerCase();
    if (!/^[a-z]{2}$/.test(country) || !countries.isValid(country.toUpperCase())) {
      errors.push({ line, message: `unknown country "${fields[1].trim()}" (ISO 3166-1 alpha-2)` });
      return;
    }
    const state = toAreaSlug(fields[2] ?? '');
    const city = toAreaSlug(fields[3] ?? '');
    if (!SLUG.test(state) || !SLUG.test(city)) {
      errors.push({ line, message: 'state and city must be letters, digits or _' });
      return;
    }
    if (city && !state) {
      errors.push({ line, message: 'a city needs its state' });
      return;
    }
    // The names as written are kept for display ("Los Angeles"); the slugs are what usernames and filters use.
    nodes.push({
      kind,
      ...endpoint,
      country,
      state,
      city,
      stateName: (fields[2] ?? '').trim(),
      cityName: (fields[3] ?? '').trim(),
    });
  });
  return { nodes, errors };
}
