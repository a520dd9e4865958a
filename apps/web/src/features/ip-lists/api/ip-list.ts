import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TIpList } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Root key of the IP list queries, for invalidation after a change. */
export const IP_LISTS_QUERY_KEY = ['ip-lists'] as const;

/** Which page of which list. */
export type TIpListParams = { list: TIpList; page: number; pageSize: number };

/**
 * One page of the whitelist or blacklist, newest first. A failure shows the
 * spec's "fetch whitelist/blacklist failed" message (section 8) instead of
 * the server's text.
 */
export function getIpList(params: TIpListParams, signal?: AbortSignal) {
  const query = { page: params.page, page_size: params.pageSize };
  const options = { signal, failureMessage: translate(`ip-lists:fetchFailed.${params.list}`) };
  return params.list === 'whitelist'
    ? callApi('userWhitelist', query, options)
    : callApi('userBlacklist', query, options);
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
