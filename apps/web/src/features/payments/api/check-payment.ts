import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { translate } from '../../../lib/i18n';
import { payOrderQueryKey, storePayOrder } from './pay-order';
import { refreshPayRecords } from './pay-records';

/** "I have paid" (POST /pay/check/{order_id}): the server asks the provider about the order and credits a payment it finds. */
export function checkPayOrder(orderId: string) {
  return callApi('payCheck', { order_id: orderId }, { failureMessage: translate('payments:check.failed') });
}

/** Mutation of the "I have paid" buttons: the order and the bills follow what the check found. */
export function useCheckPayOrder() {
  return useMutation({
    mutationFn: checkPayOrder,
    onSuccess: async (checked) => {
      await queryClient.cancelQueries({ queryKey: payOrderQueryKey(checked.order.order_id) });
      storePayOrder(checked.order);
      void refreshPayRecords();
    },
  });
}
