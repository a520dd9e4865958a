import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TUsageLogOutcome } from '@proxy/contract';
import { callApi, downloadBlob } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** The filters of a proxy's usage log: the window (ISO instants), a part of the target host, the outcome. */
export type TUsageLogFilters = { from?: string; to?: string; target?: string; outcome?: TUsageLogOutcome };

/** Query of GET /token/usage-log/{token_id} (and its export) without empty filters. */
export function toUsageLogQuery(tokenId: number, filters: TUsageLogFilters): Record<string, string | number> {
  const query: Record<string, string | number> = { token_id: tokenId };
  for (const [key, value] of Object.entries(filters)) if (value) query[key] = value;
  return query;
}

/** One page of a proxy's connections with the totals over the filters. */
export function getUsageLog(
  tokenId: number,
  filters: TUsageLogFilters,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
) {
  return callApi('tokenUsageLog', { ...toUsageLogQuery(tokenId, filters), page, page_size: pageSize } as never, {
    signal,
    // The page shows a failure in place (a proxy not found, a bad window).
    skipTips: true,
  });
}

/** The usage log page's query. */
export function useUsageLog(tokenId: number, filters: TUsageLogFilters, page: number, pageSize: number) {
  return useQuery(
    queryOptions({
      queryKey: ['usage-log', tokenId, filters, page, pageSize],
      queryFn: ({ signal }) => getUsageLog(tokenId, filters, page, pageSize, signal),
      placeholderData: keepPreviousData,
      enabled: Number.isSafeInteger(tokenId) && tokenId > 0,
      retry: false,
    }),
  );
}

/** Downloads the connections matching the filters as usage-log-<id>.csv. */
export async function exportUsageLog(tokenId: number, filters: TUsageLogFilters): Promise<void> {
  const blob = await callApi('tokenUsageLogExport', toUsageLogQuery(tokenId, filters) as never, {
    failureMessage: translate('usage-log:export.failed'),
  });
  downloadBlob(blob as Blob, `usage-log-${tokenId}.csv`);
}

/** Mutation of the export button. */
export function useExportUsageLog() {
  return useMutation({
    mutationFn: ({ tokenId, filters }: { tokenId: number; filters: TUsageLogFilters }) =>
      exportUsageLog(tokenId, filters),
  });
}
