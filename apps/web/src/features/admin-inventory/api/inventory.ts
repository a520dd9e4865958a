import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TInventoryNodeQuery, TInventoryNodeUpdate } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { AREAS_QUERY_KEY } from '../../../entities/areas/area-countries';

/** Root key of every operator query about the inventory. */
export const ADMIN_INVENTORY_KEY = ['admin', 'inventory'] as const;

/** Filters of the exit list. */
export type TNodeFilters = Partial<Omit<TInventoryNodeQuery, 'page' | 'page_size'>>;

/** A page of exit nodes (GET /admin/inventory/nodes). */
export function useInventoryNodes(params: { page: number; pageSize: number; filters: TNodeFilters }) {
  return useQuery({
    queryKey: [...ADMIN_INVENTORY_KEY, 'nodes', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminInventoryNodes',
        { page: params.page, page_size: params.pageSize, ...params.filters },
        { signal, failureMessage: translate('admin-inventory:errors.list') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Free active nodes a retirement may move pinned proxies to (same kind and country; the caller keeps the same state and city). */
export function useMoveTargets(node: { id: number; kind: TInventoryNodeQuery['kind']; country: string } | null) {
  return useQuery({
    queryKey: [...ADMIN_INVENTORY_KEY, 'move-targets', node?.id],
    queryFn: ({ signal }) =>
      callApi(
        'adminInventoryNodes',
        { page: 1, page_size: 200, kind: node!.kind, country: node!.country, status: 'active', assignment: 'free' },
        { signal, failureMessage: translate('admin-inventory:errors.list') },
      ),
    enabled: node !== null,
  });
}

/** Stock per area and kind (GET /admin/inventory/stock). */
export function useInventoryStock() {
  return useQuery({
    queryKey: [...ADMIN_INVENTORY_KEY, 'stock'],
    queryFn: ({ signal }) =>
      callApi('adminInventoryStock', {}, { signal, failureMessage: translate('admin-inventory:errors.stock') }),
  });
}

// The lists, the stock and the customers' area counts follow every change.
export const refreshInventory = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ADMIN_INVENTORY_KEY }),
    queryClient.invalidateQueries({ queryKey: AREAS_QUERY_KEY }),
  ]);

/** Edit a node (PUT /admin/inventory/nodes/{id}); the form shows the fields at fault itself. */
export function useUpdateNode() {
  return useMutation({
    mutationFn: (body: TInventoryNodeUpdate) => callApi('adminInventoryNodeUpdate', body, { skipTips: true }),
    onSuccess: refreshInventory,
  });
}

/** Retire a node, moving its pinned proxies to `move_to` when given; the dialog shows a refusal itself. */
export function useRetireNode() {
  return useMutation({
    mutationFn: (body: { id: number; move_to?: number }) =>
      callApi('adminInventoryNodeRetire', body, { skipTips: true }),
    onSuccess: refreshInventory,
  });
}

/** Probe a node now (POST /admin/inventory/nodes/{id}/probe). */
export function useProbeNode() {
  return useMutation({
    mutationFn: (id: number) =>
      callApi('adminInventoryNodeProbe', { id }, { failureMessage: translate('admin-inventory:errors.probe') }),
    onSettled: refreshInventory,
  });
}
