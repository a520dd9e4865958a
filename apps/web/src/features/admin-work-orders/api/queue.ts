import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TWorkOrderStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the operators' work-order queries (queue and conversations). */
export const ADMIN_WORK_ORDERS_QUERY_KEY = ['admin', 'work-orders'] as const;

/** Which page of the queue, of which status (all when undefined). */
export type TQueueParams = { page: number; pageSize: number; status?: TWorkOrderStatus };

/** One page of every customer's work orders, open first, the longest waiting first (GET /admin/work-orders/list). */
export function getQueue(params: TQueueParams, signal?: AbortSignal) {
  return callApi(
    'adminWorkOrderList',
    { page: params.page, page_size: params.pageSize, ...(params.status ? { status: params.status } : {}) },
    { signal, failureMessage: translate('admin-work-orders:fetchFailed') },
  );
}

/** A page of the queue. */
export function useQueue(params: TQueueParams) {
  return useQuery(
    queryOptions({
      queryKey: [...ADMIN_WORK_ORDERS_QUERY_KEY, 'list', params],
      queryFn: ({ signal }) => getQueue(params, signal),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Reloads the queue and the conversations after a change. */
export function refreshQueue(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ADMIN_WORK_ORDERS_QUERY_KEY });
}
