import type { TLang, TPage, TProxyToken, TV1Endpoints, TV1EndpointsQuery, TV1ProxiesQuery } from '@proxy/contract';
import { parseIpAddress } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { generateApiKey } from '../auth/auth.service';
import { findUserTokens } from '../proxies/proxies.repository';
import { toProxyToken } from '../proxies/proxies.service';
import { assertAreaServed, buildEndpoints, type TEndpoint } from '../endpoint-generator/endpoint-lines';
import { listUsableTokens, listV1TokensPage, updateApiKey } from './customer-api.repository';

/**
 * The customer API (/api/v1): what a program fetches with the user's personal
 * API key. Area lists reuse the console's area service; these are the proxy
 * list, the endpoint lines and the key itself.
 */

type TV1Deps = Pick<TDeps, 'db' | 'config' | 'clock'>;

/** The user's proxies, paged, filtered by protocol, area and exit address. */
export async function listV1Proxies(
  deps: TV1Deps,
  userId: number,
  query: TV1ProxiesQuery,
  lang: TLang,
): Promise<TPage<TProxyToken>> {
  let exitIp: string | undefined;
  if (query.ipAddress) {
    const parsed = parseIpAddress(query.ipAddress);
    if (!parsed) throw new AppError('BAD_REQUEST', undefined, [{ path: 'ipAddress', message: 'ipAddressInvalid' }]);
    exitIp = parsed.toString();
  }
  const { rows, total } = await listV1TokensPage(
    deps.db,
    userId,
    {
      network: query.networkType,
      country: query.countryId || undefined,
      state: query.stateId || undefined,
      city: query.cityId || undefined,
      exitIp,
    },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return { records: rows.map((r) => toProxyToken(r, deps, lang)), total, page: query.page, page_size: query.pageSize };
}

/**
 * Endpoint lines: `limit` lines of one proxy (proxyId; area and session
 * options on a dynamic one), or one line per usable proxy matching
 * networkType and countryId. Text (one line each) or the JSON envelope.
 */
export async function getV1Endpoints(
  deps: TV1Deps,
  userId: number,
  query: TV1EndpointsQuery,
): Promise<TV1Endpoints | RawReply> {
  let endpoints: (TEndpoint & { proxy_id: number })[];
  const options = { session: query.session, sesstime: query.sesstime, line: query.line };
  if (query.proxyId !== undefined) {
    const [token] = await findUserTokens(deps.db, userId, [query.proxyId]);
    if (!token || token.deletedAt) throw new AppError('NOT_FOUND');
    const area = { country: query.countryId ?? '', state: query.stateId ?? '', city: query.cityId ?? '' };
    if (token.product === 'dynamic') await assertAreaServed(deps, token, area);
    endpoints = buildEndpoints(deps.config, token, { ...area, ...options }, query.limit).map((e) => ({
      ...e,
      proxy_id: token.id,
    }));
  } else {
    const tokens = await listUsableTokens(
      deps.db,
      userId,
      {
        network: query.networkType,
        country: query.countryId || undefined,
        state: query.stateId || undefined,
        city: query.cityId || undefined,
        now: deps.clock.now(),
      },
      query.limit,
    );
    // Each proxy's own line (its own area): one endpoint per proxy.
    endpoints = tokens.flatMap((token) =>
      buildEndpoints(deps.config, token, { country: '', state: '', city: '', ...options }, 1).map((e) => ({
        ...e,
        proxy_id: token.id,
      })),
    );
  }
  if (query.format === 'text') {
    return new RawReply(
      endpoints.map((e) => e.line).join('\n') + (endpoints.length ? '\n' : ''),
      'text/plain; charset=utf-8',
    );
  }
  return {
    endpoints: endpoints.map((e) => ({
      proxy_id: e.proxy_id,
      host: e.host,
      port: e.port,
      username: e.username,
      password: e.password,
      network: e.network,
      line: e.line,
      url: e.url,
    })),
    total: endpoints.length,
  };
}

/** A new personal API key; the old one stops working with this commit. */
export async function resetApiKey(deps: Pick<TDeps, 'db'>, userId: number): Promise<{ token: string }> {
  const token = generateApiKey();
  await updateApiKey(deps.db, userId, token);
  return { token };
}
