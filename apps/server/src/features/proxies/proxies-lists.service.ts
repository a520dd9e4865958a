import {
  formatProxyLine,
  type TExportQuery,
  type TLang,
  type TPage,
  type TProxyList,
  type TProxyListQuery,
  type TProxyToken,
} from '@proxy/contract';
import { csvCell } from '../../lib/csv';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { findUserTokens, listTokensMatching, listTokensPage, type TTokenRow } from './proxies.repository';
import { toProxyToken, uniqueIds } from './proxies.service';

/** A page of one of the seven lists. */
export async function listTokens(
  deps: Pick<TDeps, 'db' | 'config'>,
  userId: number,
  list: TProxyList,
  query: TProxyListQuery,
  lang: TLang,
): Promise<TPage<TProxyToken>> {
  const { page, page_size, ...filters } = query;
  const { rows, total } = await listTokensPage(
    deps.db,
    userId,
    { ...filters, list },
    { limit: page_size, offset: (page - 1) * page_size },
  );
  return { records: rows.map((r) => toProxyToken(r, deps, lang)), total, page, page_size };
}

/** Most tokens one export answers. */
export const EXPORT_MAX_TOKENS = 10_000;

/**
 * The export file: the given tokens, or every token matching the list filters,
 * one line each in the chosen line format; csv adds a header and columns.
 * Both URL formats (http, socks5) write each proxy with the scheme of its own
 * protocol, so every line works at the gateway whatever the mix.
 */
export async function exportTokens(
  deps: Pick<TDeps, 'db' | 'config'>,
  userId: number,
  query: TExportQuery,
): Promise<RawReply> {
  const { token_ids: ids, format, line, ...filters } = query;
  const rows = ids
    ? (await findUserTokens(deps.db, userId, uniqueIds(ids).slice(0, EXPORT_MAX_TOKENS))).filter((r) => !r.deletedAt)
    : await listTokensMatching(deps.db, userId, filters, EXPORT_MAX_TOKENS);
  const host = deps.config.gatewayPublicHost;
  const port = deps.config.GATEWAY_PUBLIC_PORT;
  const lineOf = (r: TTokenRow) =>
    formatProxyLine({ host, port, username: r.username, password: r.password, network: r.network }, line);
  if (format === 'csv') {
    const header = [
      'token_id',
      'line',
      'host',
      'port',
      'username',
      'password',
      'network',
      'type',
      'country',
      'state',
      'city',
      'status',
      'expires_at',
      'remark',
    ];
    const body = rows.map((r) =>
      [
        r.id,
        lineOf(r),
        host,
        port,
        r.username,
        r.password,
        r.network,
        r.billing,
        r.country,
        r.state,
        r.city,
        r.deletedAt ? 'deleted' : r.status,
        r.expiresAt.toISOString(),
        r.remark,
      ]
        .map(csvCell)
        .join(','),
    );
    return new RawReply(`${[header.join(','), ...body].join('\r\n')}\r\n`, 'text/csv; charset=utf-8', 'proxies.csv');
  }
  const text = rows.map(lineOf).join('\n');
  return new RawReply(text ? `${text}\n` : '', 'text/plain; charset=utf-8', 'proxies.txt');
}
