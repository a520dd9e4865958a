import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TPoolQuery, TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of every operator query about upstream pools. */
export const ADMIN_POOLS_KEY = ['admin', 'pools'] as const;

/** Filters of the pool list. */
export type TPoolFilters = Partial<Pick<TPoolQuery, 'status' | 'keyword'>>;

/** A page of pools (GET /admin/pools). */
export function usePools(params: { page: number; pageSize: number; filters: TPoolFilters }) {
  return useQuery({
    queryKey: [...ADMIN_POOLS_KEY, 'list', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminPools',
        { page: params.page, page_size: params.pageSize, ...params.filters },
        { signal, failureMessage: translate('admin-pools:errors.list') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** One pool with its coverage list and area spellings (GET /admin/pools/{id}); idle for null. */
export function usePool(id: number | null) {
  return useQuery({
    queryKey: [...ADMIN_POOLS_KEY, 'detail', id],
    queryFn: ({ signal }) =>
      callApi('adminPool', { id: id! }, { signal, failureMessage: translate('admin-pools:errors.detail') }),
    enabled: id !== null,
  });
}

// The list and the open pool follow every change.
const refreshPools = () => queryClient.invalidateQueries({ queryKey: ADMIN_POOLS_KEY });

/** Add a pool; the form shows the fields at fault and other refusals itself. */
export function useCreatePool() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminPoolCreate'>) => callApi('adminPoolCreate', body, { skipTips: true }),
    onSuccess: refreshPools,
  });
}

/** Edit a pool (a password left out keeps the stored one); the form shows refusals itself. */
export function useUpdatePool() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminPoolUpdate'>) => callApi('adminPoolUpdate', body, { skipTips: true }),
    onSuccess: refreshPools,
  });
}

/** Pause or resume a pool; a refusal is toasted in the server's words. */
export function useSetPoolStatus() {
  return useMutation({
    mutationFn: (input: { id: number; status: 'enabled' | 'paused' }) =>
      callApi(input.status === 'paused' ? 'adminPoolPause' : 'adminPoolResume', { id: input.id }),
    onSettled: refreshPools,
  });
}

/** Delete a paused pool; the server's refusal (an enabled pool) is toasted as it says it. */
export function useDeletePool() {
  return useMutation({
    mutationFn: (id: number) => callApi('adminPoolDelete', { id }),
    onSettled: refreshPools,
  });
}

/** Set what a pool serves (every country, or a CSV list); the panel lists the bad lines itself. */
export function useSetPoolCoverage() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminPoolCoverage'>) => callApi('adminPoolCoverage', body, { skipTips: true }),
    onSuccess: refreshPools,
  });
}

/** Import the provider's spellings of areas (CSV); the panel lists the bad lines itself. */
export function useSetPoolAreaMapping() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminPoolAreaMapping'>) =>
      callApi('adminPoolAreaMapping', body, { skipTips: true }),
    onSuccess: refreshPools,
  });
}

/** Check a pool for an area (and a session); the dialog shows the outcome and any refusal itself. */
export function useCheckPool() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminPoolCheck'>) => callApi('adminPoolCheck', body, { skipTips: true }),
    // The list shows the last check.
    onSettled: refreshPools,
  });
}
