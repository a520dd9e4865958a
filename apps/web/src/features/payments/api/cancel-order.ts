import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { translate } from '../../../lib/i18n';
import { payOrderQueryKey, refreshPayOrder, storePayOrder } from './pay-order';
import { refreshPayRecords } from './pay-records';

/** Cancels a pending order (POST /pay/cancel/{order_id}); failures say "cancelling failed" with the reason. */
export function cancelPayOrder(orderId: string) {
  return callApi('payCancel', { order_id: orderId }, { failureMessage: translate('payments:order.cancelFailed') });
}

/** Mutation of the cancel buttons: the order's status and the bills follow; a refused cancellation reloads the order (it has ended meanwhile). */
export function useCancelPayOrder() {
  return useMutation({
    mutationFn: cancelPayOrder,
    onSuccess: async (order) => {
      // A poll sent before the cancellation would answer "pending": drop it.
      await queryClient.cancelQueries({ queryKey: payOrderQueryKey(order.order_id) });
      storePayOrder(order);
      void refreshPayRecords();
    },
    onError: (_error, orderId) => {
      void refreshPayOrder(orderId);
      void refreshPayRecords();
    },
  });
}
