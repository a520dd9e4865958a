import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { ADMIN_WORK_ORDERS_QUERY_KEY } from './queue';

/** Any work order with its conversation and customer (GET /admin/work-orders/detail/{id}). */
export function getAdminWorkOrder(id: number, signal?: AbortSignal) {
  return callApi(
    'adminWorkOrderDetail',
    { id },
    { signal, failureMessage: translate('admin-work-orders:detail.fetchFailed') },
  );
}

/** A work order with its conversation and customer. */
export function useAdminWorkOrder(id: number) {
  return useQuery({
    queryKey: [...ADMIN_WORK_ORDERS_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) => getAdminWorkOrder(id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
}
