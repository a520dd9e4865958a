import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyList, TProxyStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Root key of every proxy list query, for invalidation after a change. */
export const TOKEN_LIST_QUERY_KEY = ['proxies', 'list'] as const;

/** Filters of a list as the screen holds them (dates as ISO strings). */
export type TTokenListFilters = {
  status?: TProxyStatus;
  country?: string;
  keyword?: string;
  created_from?: string;
  created_to?: string;
  expires_from?: string;
  expires_to?: string;
};

/** Which page of which list with which filters. */
export type TTokenListParams = { list: TProxyList; page: number; pageSize: number; filters: TTokenListFilters };

/** The list's GET call by list name (spec section 7: the seven lists). */
const LIST_ROUTES = {
  'static/traffic': 'tokenListStaticTraffic',
  'static/ip': 'tokenListStaticIp',
  'variable/traffic': 'tokenListVariableTraffic',
  'variable/ip': 'tokenListVariableIp',
  'isp/static': 'tokenListIspStatic',
  'isp/dynamic': 'tokenListIspDynamic',
  'idc/static': 'tokenListIdcStatic',
} as const satisfies Record<TProxyList, string>;

/** Query parameters of a list or an export: empty filters left out. */
export function toListQuery(filters: TTokenListFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value.trim() !== '') query[key] = value.trim();
  }
  return query;
}

/** One page of a list (GET /token/list/<list>); failures say "failed to fetch the list". */
export function getTokenList(params: TTokenListParams, signal?: AbortSignal) {
  const query = { ...toListQuery(params.filters), page: params.page, page_size: params.pageSize };
  return callApi(LIST_ROUTES[params.list], query, { signal, failureMessage: translate('proxies:errors.fetchList') });
}

/** Query options of one page. */
export function tokenListQueryOptions(params: TTokenListParams) {
  return queryOptions({
    queryKey: [...TOKEN_LIST_QUERY_KEY, params.list, { page: params.page, pageSize: params.pageSize, ...params.filters }],
    queryFn: ({ signal }) => getTokenList(params, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A page of a list. */
export function useTokenList(params: TTokenListParams) {
  return useQuery(tokenListQueryOptions(params));
}
