import { useMutation } from '@tanstack/react-query';
import { refreshNotifications } from '../../../entities/notifications/notification-list';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { translate } from '../../../lib/i18n';
import { refreshLedger } from './ledger';
import { payOrderQueryKey, storePayOrder } from './pay-order';
import { refreshPayRecords } from './pay-records';

/** "I have paid" (POST /pay/check/{order_id}): the server asks the provider about the order and credits a payment it finds. */
export function checkPayOrder(orderId: string) {
  return callApi('payCheck', { order_id: orderId }, { failureMessage: translate('payments:check.failed') });
}

/**
 * Mutation of the "I have paid" buttons: the order and the bills follow what
 * the check found; an order found paid (by this check or by a notification
 * meanwhile) also reloads the balance (header, dashboard), the statement and
 * the notifications, as the order's own status poll does when it sees it end.
 */
export function useCheckPayOrder() {
  return useMutation({
    mutationFn: checkPayOrder,
    onSuccess: async (checked) => {
      await queryClient.cancelQueries({ queryKey: payOrderQueryKey(checked.order.order_id) });
      storePayOrder(checked.order);
      void refreshPayRecords();
      if (checked.order.status === 'success') {
        void refreshBalance();
        void refreshLedger();
        void refreshNotifications();
      }
    },
  });
}
