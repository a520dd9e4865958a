import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The caller's own address as the server sees it (the check form's default); no toast, it is only a convenience. */
export function getMyIp(signal?: AbortSignal) {
  return callApi('userMyIp', undefined, { signal, skipTips: true });
}

/** Query options of the caller's address; it rarely changes during a visit. */
export function myIpQueryOptions() {
  return queryOptions({
    queryKey: ['ip-quality', 'my-ip'],
    queryFn: ({ signal }) => getMyIp(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The caller's address. */
export function useMyIp() {
  return useQuery(myIpQueryOptions());
}
