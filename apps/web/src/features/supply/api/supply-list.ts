import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TSupplyStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { translate } from '../../../lib/i18n';

/** Root key of the supply request queries (list and detail). */
export const SUPPLY_QUERY_KEY = ['supply'] as const;

/** Which page of the history, under which status. */
export type TSupplyListParams = { page: number; pageSize: number; status?: TSupplyStatus };

/** A page of the user's supply requests (GET /token/supply/list), newest first. */
export function getSupplyList(params: TSupplyListParams, signal?: AbortSignal) {
  return callApi(
    'supplyList',
    { page: params.page, page_size: params.pageSize, status: params.status },
    { signal, failureMessage: translate('supply:history.fetchFailed') },
  );
}

/** A page of the history. */
export function useSupplyList(params: TSupplyListParams) {
  return useQuery(
    queryOptions({
      queryKey: [...SUPPLY_QUERY_KEY, 'list', params],
      queryFn: ({ signal }) => getSupplyList(params, signal),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Reloads the history and details after a submit or a revoke. */
export function refreshSupply(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: SUPPLY_QUERY_KEY });
}
