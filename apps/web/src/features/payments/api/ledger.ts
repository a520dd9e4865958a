import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TLedgerReason } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the statement (GET /pay/ledger/list), for invalidation when the balance moves. */
export const LEDGER_QUERY_KEY = ['payments', 'ledger'] as const;

/** Filters of the statement as the screen holds them (days as ISO times; `to` excluded). */
export type TLedgerFilters = { reason?: TLedgerReason; from?: string; to?: string };

/** One page of the statement with its filters. */
export type TLedgerPageQuery = TLedgerFilters & { page: number; page_size: number };

/** One page of the statement: every movement of the balance, newest first. */
export function getLedger(query: TLedgerPageQuery, signal?: AbortSignal) {
  const params: TLedgerPageQuery = { page: query.page, page_size: query.page_size };
  if (query.reason) params.reason = query.reason;
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  return callApi('payLedgerList', params, { signal, failureMessage: translate('payments:errors.fetchLedger') });
}

/** Query options of one page of the statement. */
export function ledgerQueryOptions(query: TLedgerPageQuery) {
  return queryOptions({
    queryKey: [...LEDGER_QUERY_KEY, query],
    queryFn: ({ signal }) => getLedger(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** One page of the statement. */
export function useLedger(query: TLedgerPageQuery) {
  return useQuery(ledgerQueryOptions(query));
}

/** Reloads the statement (the balance moved). */
export function refreshLedger(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: LEDGER_QUERY_KEY });
}
