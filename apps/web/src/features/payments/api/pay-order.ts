import { queryOptions, useQuery } from '@tanstack/react-query';
import { formatYuan, type TChargeResult, type TPayOrder } from '@proxy/contract';
import { refreshNotifications } from '../../../entities/notifications/notification-list';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError, showSuccess, showWarning } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { refreshLedger } from './ledger';
import { refreshPayRecords } from './pay-records';

/** How often a pending order's status is asked for. */
export const ORDER_POLL_MS = 2_000;

/** Query key of one order (GET /pay/order/{order_id}). */
export function payOrderQueryKey(orderId: string) {
  return ['payments', 'order', orderId] as const;
}

/** Poll while the order is pending; stop once it has ended. */
export function orderPollInterval(order: TPayOrder | undefined): number | false {
  return order?.status === 'pending' ? ORDER_POLL_MS : false;
}

/** The order part of a charge answer (without how to pay it). */
export function orderOfCharge(charge: TChargeResult): TPayOrder {
  const { mode: _mode, pay_url: _payUrl, qr_code: _qrCode, ...order } = charge;
  return order;
}

/**
 * An order has just ended: bills and statement reload; a payment tells so and
 * reloads the balance (header, dashboard) and the notifications.
 */
function announceOrderEnd(order: TPayOrder): void {
  void refreshPayRecords();
  void refreshLedger();
  if (order.status === 'success') {
    showSuccess(translate('payments:order.paidToast', { value: formatYuan(order.value) }));
    void refreshBalance();
    void refreshNotifications();
  } else if (order.status === 'failure') {
    showError(translate('payments:order.failedToast'));
  } else if (order.status === 'timeout') {
    showWarning(translate('payments:order.timeoutToast'));
  }
  // Cancelled: the cancel button says so itself.
}

/** One order, by id; not toasted (the status is polled, a failed poll is shown in place and retried). */
export function getPayOrder(orderId: string, signal?: AbortSignal) {
  return callApi('payOrder', { order_id: orderId }, { signal, skipTips: true });
}

async function fetchOrder(orderId: string, signal: AbortSignal): Promise<TPayOrder> {
  const before = queryClient.getQueryData<TPayOrder>(payOrderQueryKey(orderId));
  const order = await getPayOrder(orderId, signal);
  // A replaced (cancelled) request's answer is dropped, so it announces nothing.
  if (!signal.aborted && before?.status === 'pending' && order.status !== 'pending') announceOrderEnd(order);
  return order;
}

/** Query options of one order: polled while pending. */
export function payOrderQueryOptions(orderId: string) {
  return queryOptions({
    queryKey: payOrderQueryKey(orderId),
    queryFn: ({ signal }) => fetchOrder(orderId, signal),
    refetchInterval: (query) => orderPollInterval(query.state.data),
    refetchIntervalInBackground: true,
    // Back from the payment window: ask at once.
    refetchOnWindowFocus: (query) => query.state.data?.status === 'pending',
  });
}

/** The live status of one order; `initial` is what the caller already knows of it (a charge answer, a row of the bills). */
export function usePayOrder(orderId: string | null, initial?: TPayOrder) {
  return useQuery({
    ...payOrderQueryOptions(orderId ?? ''),
    enabled: orderId !== null,
    initialData: initial && initial.order_id === orderId ? initial : undefined,
  });
}

/** Remembers an order the caller has just been told about (the charge answer, a cancellation). */
export function storePayOrder(order: TPayOrder): void {
  queryClient.setQueryData(payOrderQueryKey(order.order_id), order);
}

/** Asks again for an order's status (after a refused cancellation: it has probably ended). */
export function refreshPayOrder(orderId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: payOrderQueryKey(orderId) });
}
