import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TPayMethod, TPaymentStatus, TUsdtNetwork } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

const ADMIN_PAYMENTS_KEY = ['admin', 'payments'] as const;

/** Filters of the order list. */
export type TOrderFilters = {
  status?: TPaymentStatus;
  method?: TPayMethod;
  user_id?: number;
  /** The customer's e-mail, exact (any case). */
  user_email?: string;
  order_id?: string;
  /** From this time (ISO 8601), inclusive. */
  from?: string;
  /** Before this time (ISO 8601). */
  to?: string;
};

/** A page of every customer's recharge orders. */
export function useAdminOrders(params: { page: number; pageSize: number; filters: TOrderFilters }) {
  return useQuery({
    queryKey: [...ADMIN_PAYMENTS_KEY, 'orders', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminPayOrderList',
        { page: params.page, page_size: params.pageSize, ...params.filters },
        { signal, failureMessage: translate('admin-payments:errors.orders') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** A page of the USDT transfers that matched no order. */
export function useUnmatchedTransfers(params: { page: number; pageSize: number; network?: TUsdtNetwork }) {
  return useQuery({
    queryKey: [...ADMIN_PAYMENTS_KEY, 'unmatched', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminPayUnmatchedList',
        { page: params.page, page_size: params.pageSize, network: params.network },
        { signal, failureMessage: translate('admin-payments:errors.unmatched') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Credits an unmatched transfer to a customer. */
export function useAssignTransfer() {
  return useMutation({
    mutationFn: (input: { id: number; user_id: number; amount: string }) =>
      callApi('adminPayAssignTransfer', input, { failureMessage: translate('admin-payments:errors.assign') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_PAYMENTS_KEY }),
  });
}

/** Reverses a paid recharge refunded outside, with the reason. */
export function useReverseOrder() {
  return useMutation({
    mutationFn: (input: { order_id: string; reason: string }) =>
      callApi('adminPayReverse', input, { failureMessage: translate('admin-payments:errors.reverse') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_PAYMENTS_KEY }),
  });
}

/** Asks the provider about a pending order: settled if paid, failed if closed, else left pending. */
export function useReconcileOrder() {
  return useMutation({
    mutationFn: (orderId: string) =>
      callApi(
        'adminPayReconcile',
        { order_id: orderId },
        { failureMessage: translate('admin-payments:errors.reconcile') },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_PAYMENTS_KEY }),
  });
}
