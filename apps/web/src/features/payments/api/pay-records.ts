import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TPaymentStatus } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the bills (GET /pay/record/list), for invalidation when an order changes. */
export const PAY_RECORDS_QUERY_KEY = ['payments', 'records'] as const;

/** Filters of the bills as the screen holds them (days as ISO times; `to` excluded). */
export type TBillFilters = { status?: TPaymentStatus; from?: string; to?: string };

/** One page of the bills with its filters. */
export type TBillQuery = TBillFilters & { page: number; page_size: number };

/** Query parameters of the bills or their export: filters that are not set are left out. */
export function toBillQuery(filters: TBillFilters): TBillFilters {
  const query: TBillFilters = {};
  if (filters.status) query.status = filters.status;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  return query;
}

/** One page of the recharge orders, newest first. */
export function getPayRecords(query: TBillQuery, signal?: AbortSignal) {
  return callApi(
    'payRecordList',
    { ...toBillQuery(query), page: query.page, page_size: query.page_size },
    { signal, failureMessage: translate('payments:errors.fetchBills') },
  );
}

/** Query options of one page of the bills. */
export function payRecordsQueryOptions(query: TBillQuery) {
  return queryOptions({
    queryKey: [...PAY_RECORDS_QUERY_KEY, query],
    queryFn: ({ signal }) => getPayRecords(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** One page of the bills. */
export function usePayRecords(query: TBillQuery) {
  return useQuery(payRecordsQueryOptions(query));
}

/** Reloads the bills (an order was paid, failed, timed out or was cancelled). */
export function refreshPayRecords(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: PAY_RECORDS_QUERY_KEY });
}
