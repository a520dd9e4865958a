import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import type { TExampleValues } from '../utils/openapi';

/**
 * Real values for the curl examples, so they work as shown: one of the
 * user's usable proxies (a dynamic one first) and a country with inventory.
 * Missing values just leave the optional parameters out; nothing is toasted.
 */
export async function getExampleValues(signal?: AbortSignal): Promise<TExampleValues> {
  const options = { signal, skipTips: true };
  const query = { page: 1, page_size: 1, status: 'enabled' as const };
  const [dynamic, ispStatic, idcStatic, countries] = await Promise.all([
    callApi('tokenListIspDynamic', query, options).catch(() => null),
    callApi('tokenListIspStatic', query, options).catch(() => null),
    callApi('tokenListIdcStatic', query, options).catch(() => null),
    callApi('tokenAreaCountries', { category: 'isp' }, options).catch(() => []),
  ]);
  const proxy = dynamic?.records[0] ?? ispStatic?.records[0] ?? idcStatic?.records[0];
  return {
    proxyId: proxy?.token_id,
    countryId: countries[0]?.id ?? proxy?.area.country ?? 'us',
    ip: '8.8.8.8',
    limit: 10,
    format: 'text',
  };
}

/** Query options of the example values. */
export function exampleValuesQueryOptions() {
  return queryOptions({ queryKey: ['api-docs', 'example-values'], queryFn: ({ signal }) => getExampleValues(signal), staleTime: 60_000, retry: false });
}

/** Real values for the curl examples. */
export function useExampleValues() {
  return useQuery(exampleValuesQueryOptions());
}
