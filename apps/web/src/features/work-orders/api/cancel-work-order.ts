import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshWorkOrders } from './work-order-list';

/** Cancels one of the customer's open or answered work orders (POST /user/work/order/cancel/{id}). */
export function cancelWorkOrder(id: number) {
  return callApi('workOrderCancel', { id }, { failureMessage: translate('work-orders:cancel.failed') });
}

/** Mutation of the cancel buttons; the list and the conversation reload afterwards. */
export function useCancelWorkOrder() {
  return useMutation({ mutationFn: cancelWorkOrder, onSettled: refreshWorkOrders });
}
