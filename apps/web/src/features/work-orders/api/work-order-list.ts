import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TWorkOrderStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the customer's work-order queries (list and conversations). */
export const WORK_ORDERS_QUERY_KEY = ['work-orders', 'mine'] as const;

/** Which page of the list, of which status (all when undefined). */
export type TWorkOrderListParams = { page: number; pageSize: number; status?: TWorkOrderStatus };

/** One page of the customer's work orders, newest first (GET /user/work/order/list). */
export function getWorkOrderList(params: TWorkOrderListParams, signal?: AbortSignal) {
  return callApi(
    'workOrderList',
    { page: params.page, page_size: params.pageSize, ...(params.status ? { status: params.status } : {}) },
    { signal, failureMessage: translate('work-orders:list.fetchFailed') },
  );
}

/** A page of the customer's work orders. */
export function useWorkOrderList(params: TWorkOrderListParams) {
  return useQuery(
    queryOptions({
      queryKey: [...WORK_ORDERS_QUERY_KEY, 'list', params],
      queryFn: ({ signal }) => getWorkOrderList(params, signal),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Reloads the list and the conversations after a change. */
export function refreshWorkOrders(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: WORK_ORDERS_QUERY_KEY });
}
