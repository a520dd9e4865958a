import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** A page of a proxy's session hold report (GET /token/session/holds): the detail drawer shows a failure in place. */
export function getSessionHolds(tokenId: number, page: number, pageSize: number, signal?: AbortSignal) {
  return callApi('tokenSessionHolds', { token_id: tokenId, page, page_size: pageSize }, { signal, skipTips: true });
}

/** The sticky sessions section's query (asked only for a proxy that can have sticky sessions). */
export function useSessionHolds(tokenId: number, page: number, pageSize: number, isEnabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['proxies', 'session-holds', tokenId, page, pageSize],
      queryFn: ({ signal }) => getSessionHolds(tokenId, page, pageSize, signal),
      placeholderData: keepPreviousData,
      enabled: isEnabled,
      staleTime: 30_000,
      retry: false,
    }),
  );
}
