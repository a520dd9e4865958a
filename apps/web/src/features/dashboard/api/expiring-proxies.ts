import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyToken } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Days ahead the expiring-soon list looks. */
export const EXPIRING_WITHIN_DAYS = 3;
const EXPIRING_PAGE_SIZE = 50;

/** A proxy that expires soon, with the list it belongs to. */
export type TExpiringProxy = TProxyToken & { kind: 'dynamic' | 'static' | 'idc' };

/** Enabled proxies expiring within 3 days, soonest first (the three lists with an expiry range). */
export async function getExpiringProxies(now = new Date(), signal?: AbortSignal): Promise<TExpiringProxy[]> {
  const query = {
    page: 1,
    page_size: EXPIRING_PAGE_SIZE,
    status: 'enabled' as const,
    expires_from: now.toISOString(),
    expires_to: new Date(now.getTime() + EXPIRING_WITHIN_DAYS * 24 * 60 * 60 * 1000).toISOString(),
  };
  const options = { signal, skipTips: true };
  const [dynamic, ispStatic, idc] = await Promise.all([
    callApi('tokenListIspDynamic', query, options),
    callApi('tokenListIspStatic', query, options),
    callApi('tokenListIdcStatic', query, options),
  ]);
  return [
    ...dynamic.records.map((r) => ({ ...r, kind: 'dynamic' as const })),
    ...ispStatic.records.map((r) => ({ ...r, kind: 'static' as const })),
    ...idc.records.map((r) => ({ ...r, kind: 'idc' as const })),
  ].sort((a, b) => Date.parse(a.expires_at) - Date.parse(b.expires_at));
}

/** Query options of the expiring-soon list. */
export function expiringProxiesQueryOptions() {
  return queryOptions({ queryKey: ['dashboard', 'expiring'], queryFn: ({ signal }) => getExpiringProxies(new Date(), signal), staleTime: 60_000, retry: false });
}

/** Proxies expiring within 3 days. */
export function useExpiringProxies() {
  return useQuery(expiringProxiesQueryOptions());
}
