import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshQueue } from './queue';

/** Closes an open or answered work order (POST /admin/work-orders/close/{id}). */
export function closeWorkOrder(id: number) {
  return callApi('adminWorkOrderClose', { id }, { failureMessage: translate('admin-work-orders:close.failed') });
}

/** Mutation of the close button; the queue and the conversation reload afterwards. */
export function useCloseWorkOrder() {
  return useMutation({ mutationFn: closeWorkOrder, onSettled: refreshQueue });
}
