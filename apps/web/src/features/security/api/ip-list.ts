import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TIpList } from '@proxy/contract';
import { ApiError, callApi, NETWORK_ERROR_CODE } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';

/** Root key of the IP list queries, for invalidation after a change. */
export const IP_LISTS_QUERY_KEY = ['ip-lists'] as const;

/** Which page of which list. */
export type TIpListParams = { list: TIpList; page: number; pageSize: number };

/**
 * One page of the whitelist or blacklist, newest first. A failure shows the
 * spec's "fetch whitelist/blacklist failed" message (section 8) instead of
 * the server's text.
 */
export async function getIpList(params: TIpListParams, signal?: AbortSignal) {
  const query = { page: params.page, page_size: params.pageSize };
  try {
    return params.list === 'whitelist'
      ? await callApi('userWhitelist', query, { signal, skipTips: true })
      : await callApi('userBlacklist', query, { signal, skipTips: true });
  } catch (error) {
    const isCancelled = error instanceof ApiError && error.code === NETWORK_ERROR_CODE && signal?.aborted;
    if (!isCancelled) showError(translate(`security:fetchFailed.${params.list}`));
    throw error;
  }
}

/** Query options of a page of one list. */
export function ipListQueryOptions(params: TIpListParams) {
  return queryOptions({
    queryKey: [...IP_LISTS_QUERY_KEY, params.list, { page: params.page, pageSize: params.pageSize }],
    queryFn: ({ signal }) => getIpList(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** A page of one list. */
export function useIpList(params: TIpListParams) {
  return useQuery(ipListQueryOptions(params));
}
