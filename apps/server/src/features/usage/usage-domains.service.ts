import {
  DOMAIN_USAGE_DEFAULT_DAYS,
  DOMAIN_USAGE_LISTED,
  DOMAIN_USAGE_RANGE_MAX_DAYS,
  type TDomainUsage,
  type TDomainUsageQuery,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { csvCell } from '../../lib/csv';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { findUserById } from '../accounts/accounts.repository';
import { findUserTokens } from '../proxies/proxies.repository';
import { sumDomainUsage, topDomains, type TDomainUsageScope } from './usage-domains.repository';

/**
 * Usage by target domain (GET /token/session/domains, its CSV, GET /v1/usage/domains): the gateways' per-proxy,
 * per-day rows of one account summed over UTC days, the named domains by bytes and "other", always scoped by the
 * caller's account.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

type TDomainDeps = Pick<TDeps, 'db' | 'clock'>;

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/**
 * The period of a query, UTC days both included: `to` defaults to today, `from` to the 6 days before `to`;
 * `from` after `to` or more than DOMAIN_USAGE_RANGE_MAX_DAYS days answer 400. The proxy, when named, must be the
 * caller's (404 otherwise, as for every other proxy route).
 */
async function scopeOf(deps: TDomainDeps, userId: number, query: TDomainUsageQuery): Promise<TDomainUsageScope> {
  if (query.token_id !== undefined && (await findUserTokens(deps.db, userId, [query.token_id])).length === 0) {
    throw new AppError('NOT_FOUND');
  }
  const to = query.to ?? dayOf(deps.clock.now().getTime());
  const from = query.from ?? dayOf(msOf(to) - (DOMAIN_USAGE_DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'rangeOrder' }]);
  if ((msOf(to) - msOf(from)) / DAY_MS + 1 > DOMAIN_USAGE_RANGE_MAX_DAYS) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'domainUsageRangeDays' }]);
  }
  return { userId, tokenId: query.token_id, from, to };
}

// A share of the period's bytes, 0 to 1 with 4 decimals.
const shareOf = (bytes: number, total: number) => (total === 0 ? 0 : Math.round((bytes / total) * 10_000) / 10_000);

/**
 * The figures of a period: at most DOMAIN_USAGE_LISTED named domains (most bytes first, ties by name); "other" is
 * the gateways' own "other" rows plus every named domain past those listed, so the domains and other sum to the
 * totals exactly.
 */
export async function getDomainUsage(
  deps: TDomainDeps,
  userId: number,
  query: TDomainUsageQuery,
): Promise<TDomainUsage> {
  const scope = await scopeOf(deps, userId, query);
  const [sums, top, user] = await Promise.all([
    sumDomainUsage(deps.db, scope),
    topDomains(deps.db, scope, DOMAIN_USAGE_LISTED),
    findUserById(deps.db, userId),
  ]);
  let listedBytes = 0;
  let listedConnections = 0;
  for (const d of top) {
    listedBytes += d.bytes;
    listedConnections += d.connections;
  }
  const otherBytes = sums.bytes - listedBytes;
  return {
    token_id: scope.tokenId ?? null,
    from: scope.from,
    to: scope.to,
    enabled: user?.domainUsageEnabled ?? true,
    total_bytes: sums.bytes,
    total_connections: sums.connections,
    domains: top.map((d) => ({ ...d, share: shareOf(d.bytes, sums.bytes) })),
    other: {
      bytes: otherBytes,
      connections: sums.connections - listedConnections,
      share: shareOf(otherBytes, sums.bytes),
    },
  };
}

/** The CSV's columns, in order: the period's UTC days (both included) and the proxy (empty: the whole account) on each line. */
export const DOMAIN_USAGE_CSV_COLUMNS = [
  'from_utc_day',
  'to_utc_day',
  'proxy_id',
  'domain',
  'bytes',
  'connections',
  'share',
] as const;

/**
 * The same figures as CSV: one line per listed domain, then "(other)" and "(total)" (parentheses never occur in a
 * domain name).
 */
export async function exportDomainUsage(
  deps: TDomainDeps,
  userId: number,
  query: TDomainUsageQuery,
): Promise<RawReply> {
  const usage = await getDomainUsage(deps, userId, query);
  const line = (domain: string, f: { bytes: number; connections: number; share: number }) =>
    [usage.from, usage.to, usage.token_id ?? '', domain, f.bytes, f.connections, f.share].map(csvCell).join(',');
  const lines = [
    DOMAIN_USAGE_CSV_COLUMNS.join(','),
    ...usage.domains.map((d) => line(d.domain, d)),
    line('(other)', usage.other),
    line('(total)', {
      bytes: usage.total_bytes,
      connections: usage.total_connections,
      share: usage.total_bytes === 0 ? 0 : 1,
    }),
  ];
  const scope = usage.token_id === null ? 'account' : `proxy-${usage.token_id}`;
  return new RawReply(
    `${lines.join('\r\n')}\r\n`,
    'text/csv; charset=utf-8',
    `domains-${scope}-${usage.from}-${usage.to}-utc.csv`,
  );
}
