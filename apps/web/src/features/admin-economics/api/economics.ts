import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TEconomicsQuery, TRouteRequest } from '@proxy/contract';
import { callApi, downloadBlob } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of every operator query about the economics. */
export const ADMIN_ECONOMICS_KEY = ['admin', 'economics'] as const;

/** The report's filters: a range of UTC days (the API's default, the last 30 days, when left out) and the grouping. */
export type TEconomicsFilters = { from?: string; to?: string; group_by: TEconomicsQuery['group_by'] };

/** The report (GET /admin/economics). */
export function useEconomics(filters: TEconomicsFilters) {
  return useQuery({
    queryKey: [...ADMIN_ECONOMICS_KEY, 'report', filters],
    queryFn: ({ signal }) =>
      callApi('adminEconomics', filters, { signal, failureMessage: translate('admin-economics:errors.report') }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads the report with the same filters as economics-<group>-<from>-<to>.csv. */
export async function exportEconomics(filters: TEconomicsFilters, range: { from: string; to: string }): Promise<void> {
  const blob = await callApi('adminEconomicsExport', filters as never, {
    failureMessage: translate('admin-economics:errors.export'),
  });
  downloadBlob(blob as Blob, `economics-${filters.group_by}-${range.from}-${range.to}.csv`);
}

/** The pools to reconcile (the first 200 by id: GET /admin/pools). */
export function usePoolChoices() {
  return useQuery({
    queryKey: [...ADMIN_ECONOMICS_KEY, 'pools'],
    queryFn: ({ signal }) =>
      callApi(
        'adminPools',
        { page: 1, page_size: 200 },
        { signal, failureMessage: translate('admin-economics:errors.pools') },
      ),
  });
}

/** A pool's days beside its provider's report (GET /admin/economics/pools/{id}/reconciliation); idle for null. */
export function useReconciliation(poolId: number | null, params: { from?: string; to?: string; threshold_bp: number }) {
  return useQuery({
    queryKey: [...ADMIN_ECONOMICS_KEY, 'reconciliation', poolId, params],
    queryFn: ({ signal }) =>
      callApi(
        'adminEconomicsReconciliation',
        { id: poolId!, ...params },
        { signal, failureMessage: translate('admin-economics:errors.reconciliation') },
      ),
    enabled: poolId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Import a provider report; the form shows the refused lines itself. */
export function useImportReconciliation() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminEconomicsReconciliationImport'>) =>
      callApi('adminEconomicsReconciliationImport', body, { skipTips: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...ADMIN_ECONOMICS_KEY, 'reconciliation'] }),
  });
}
