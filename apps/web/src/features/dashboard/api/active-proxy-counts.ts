import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** Enabled proxies per kind: dynamic residential, static residential and data-center. */
export type TActiveProxyCounts = { dynamic: number; static: number; idc: number };

/** Counts from the three list calls with page_size 1 (their `total`). */
export async function getActiveProxyCounts(signal?: AbortSignal): Promise<TActiveProxyCounts> {
  const query = { page: 1, page_size: 1, status: 'enabled' as const };
  const options = { signal, skipTips: true };
  const [dynamic, ispStatic, idc] = await Promise.all([
    callApi('tokenListIspDynamic', query, options),
    callApi('tokenListIspStatic', query, options),
    callApi('tokenListIdcStatic', query, options),
  ]);
  return { dynamic: dynamic.total, static: ispStatic.total, idc: idc.total };
}

/** Query options of the counts. */
export function activeProxyCountsQueryOptions() {
  return queryOptions({ queryKey: ['dashboard', 'active-proxies'], queryFn: ({ signal }) => getActiveProxyCounts(signal), staleTime: 30_000, retry: false });
}

/** Enabled proxies per kind. */
export function useActiveProxyCounts() {
  return useQuery(activeProxyCountsQueryOptions());
}
