import { keepPreviousData, queryOptions, useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { TProxyList, TProxyStatus, TRouteOutput, TRouteRequest } from '@proxy/contract';
import { callApi, type TCallOptions } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** Root key of every proxy list query, for invalidation after a change. */
export const TOKEN_LIST_QUERY_KEY = ['proxies', 'list'] as const;

/** Query of a list: page, page size and filters (dates as ISO strings). */
export type TTokenListQuery = TRouteRequest<'tokenListIspStatic'>;

/** Filters of a list as a screen holds them (dates as ISO strings). */
export type TTokenListFilters = {
  status?: TProxyStatus;
  country?: string;
  keyword?: string;
  created_from?: string;
  created_to?: string;
  expires_from?: string;
  expires_to?: string;
};

/** How a screen wants failures told: its own message, or none (it shows them in place). */
export type TListCallOptions = Pick<TCallOptions, 'failureMessage' | 'skipTips'>;

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

/** One page of a list (GET /token/list/<list>). */
export function getTokenList(
  list: TProxyList,
  query: TTokenListQuery,
  options: TListCallOptions & { signal?: AbortSignal } = {},
) {
  return callApi(LIST_ROUTES[list], query, options);
}

/** Query options of one page of a list. */
export function tokenListQueryOptions(list: TProxyList, query: TTokenListQuery, options: TListCallOptions = {}) {
  return queryOptions({
    queryKey: [...TOKEN_LIST_QUERY_KEY, list, query],
    queryFn: ({ signal }) => getTokenList(list, query, { ...options, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One page of a list. */
export function useTokenList(list: TProxyList, query: TTokenListQuery, options: TListCallOptions = {}) {
  return useQuery(tokenListQueryOptions(list, query, options));
}

/** A page of a list as the API answers it. */
export type TTokenPage = TRouteOutput<'tokenListIspStatic'>;

/** The same page of several lists, e.g. the enabled proxies of every kind. */
export type TTokenListsResult = {
  /** One page per list, in the order asked; undefined until every list has loaded. */
  pages: TTokenPage[] | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => void;
};

// Outside the hook, so that TanStack Query keeps the combined result while the pages stay the same.
function combinePages(results: UseQueryResult<TTokenPage>[]): TTokenListsResult {
  return {
    pages: results.every((result) => result.data) ? results.map((result) => result.data!) : undefined,
    isPending: results.some((result) => result.isPending),
    isError: results.some((result) => result.isError),
    refetch: () => results.forEach((result) => void result.refetch()),
  };
}

/** The same page of several lists, loaded side by side. */
export function useTokenLists(
  lists: readonly TProxyList[],
  query: TTokenListQuery,
  options: TListCallOptions = {},
): TTokenListsResult {
  return useQueries({
    queries: lists.map((list) => tokenListQueryOptions(list, query, options)),
    combine: combinePages,
  });
}

/** Reloads every list (after a purchase, a renewal, a deletion...). */
export function refreshTokenLists(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: TOKEN_LIST_QUERY_KEY });
}
