import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { WORK_ORDERS_QUERY_KEY } from './work-order-list';

/** One of the customer's work orders with its conversation (GET /user/work/order/detail/{id}). */
export function getWorkOrder(id: number, signal?: AbortSignal) {
  return callApi('workOrderDetail', { id }, { signal, failureMessage: translate('work-orders:detail.fetchFailed') });
}

/** A work order with its conversation. */
export function useWorkOrder(id: number) {
  return useQuery({
    queryKey: [...WORK_ORDERS_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) => getWorkOrder(id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
}
