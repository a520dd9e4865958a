import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TSupplyStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the operators' supply queue (GET /admin/supply/list). */
export const SUPPLY_QUEUE_QUERY_KEY = ['admin', 'supply', 'list'] as const;

/** Which page of the queue, under which status. */
export type TSupplyQueueParams = { page: number; pageSize: number; status?: TSupplyStatus };

/** A page of every customer's requests, open ones first. */
export function getSupplyQueue(params: TSupplyQueueParams, signal?: AbortSignal) {
  return callApi(
    'adminSupplyList',
    { page: params.page, page_size: params.pageSize, status: params.status },
    { signal, failureMessage: translate('admin-supply:fetchFailed') },
  );
}

/** A page of the queue. */
export function useSupplyQueue(params: TSupplyQueueParams) {
  return useQuery({
    queryKey: [...SUPPLY_QUEUE_QUERY_KEY, params],
    queryFn: ({ signal }) => getSupplyQueue(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** Reloads the queue after an action. */
export function refreshSupplyQueue(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: SUPPLY_QUEUE_QUERY_KEY });
}
