import { randomInt } from 'node:crypto';
import {
  SESSTIME_DEFAULT_MINUTES,
  formatProxyLine,
  formatProxyUsername,
  proxyUrlOf,
  type TEndpointSession,
  type TExportLineFormat,
  type TProxyNetwork,
} from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { exitKindOf, findDynamicSupply } from '../areas/areas.service';
import type { TTokenRow } from '../proxies/proxies.repository';
import { AppError } from '../../lib/app-error';

/**
 * Endpoint lines of a token, shared by the endpoint generator (spider records)
 * and the customer API: usernames in the grammar of ARCHITECTURE.md, lines in
 * the export formats.
 */

/** Area and session options of generated lines ('' = the token's own area). */
export type TEndpointOptions = {
  country: string;
  state: string;
  city: string;
  session: TEndpointSession;
  /** Sticky minutes (sticky only). */
  sesstime?: number;
  line: TExportLineFormat;
};

/** One generated endpoint. */
export type TEndpoint = {
  host: string;
  port: number;
  username: string;
  password: string;
  network: TProxyNetwork;
  line: string;
  url: string;
};

const SESSION_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SESSION_LENGTH = 10;

function randomSessionId(): string {
  let out = '';
  for (let i = 0; i < SESSION_LENGTH; i += 1) out += SESSION_ALPHABET[randomInt(SESSION_ALPHABET.length)];
  return out;
}

/** `count` distinct random session ids (36^10 values: a repeat is re-drawn, never shared). */
export function distinctSessionIds(count: number): string[] {
  const ids = new Set<string>();
  while (ids.size < count) ids.add(randomSessionId());
  return [...ids];
}

/** True when a token is static: its file has one plain line (the exit is pinned; options do not apply). */
export function isPinnedToken(token: Pick<TTokenRow, 'product'>): boolean {
  return token.product === 'static';
}

/**
 * Refuses an area nothing serves for the token (NO_STOCK: no exit of its kind, nor an enabled upstream pool where the
 * token may use pools), so a file never holds lines that cannot work. A pool down for the moment does not refuse:
 * the lines are kept for later, and the gateway says why at the time.
 */
export async function assertAreaServed(
  deps: Pick<TDeps, 'db' | 'clock'>,
  token: TTokenRow,
  options: Pick<TEndpointOptions, 'country' | 'state' | 'city'>,
): Promise<void> {
  if (!options.country) return;
  const area = {
    kind: exitKindOf(token.category),
    country: options.country,
    state: options.state || undefined,
    city: options.city || undefined,
  };
  const supply = await findDynamicSupply(deps.db, deps.clock.now(), area, token);
  if (supply.exits === 0 && supply.pools === 0) throw new AppError('NO_STOCK');
}

/**
 * The lines of one token: a static token's single plain line, or `count`
 * lines of a dynamic token with the area options and, for sticky sessions, a
 * distinct session id and the sticky minutes on each line.
 */
export function buildEndpoints(
  config: Pick<TDeps['config'], 'gatewayPublicHost' | 'GATEWAY_PUBLIC_PORT'>,
  token: TTokenRow,
  options: TEndpointOptions,
  count: number,
): TEndpoint[] {
  const host = config.gatewayPublicHost;
  const port = config.GATEWAY_PUBLIC_PORT;
  const make = (username: string): TEndpoint => {
    const endpoint = { host, port, username, password: token.password };
    const withNetwork = { ...endpoint, network: token.network };
    return { ...withNetwork, line: formatProxyLine(withNetwork, options.line), url: proxyUrlOf(withNetwork) };
  };
  if (isPinnedToken(token)) return [make(token.username)];
  const area = {
    country: options.country || undefined,
    state: options.state || undefined,
    city: options.city || undefined,
  };
  if (options.session === 'rotating') {
    const username = formatProxyUsername(token.username, area);
    return Array.from({ length: count }, () => make(username));
  }
  const sesstime = options.sesstime ?? SESSTIME_DEFAULT_MINUTES;
  return distinctSessionIds(count).map((session) =>
    make(formatProxyUsername(token.username, { ...area, session, sesstime })),
  );
}
