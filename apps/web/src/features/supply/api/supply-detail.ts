import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { SUPPLY_QUERY_KEY } from './supply-list';

/** One supply request (GET /token/supply/{id}). */
export function getSupplyDetail(id: number, signal?: AbortSignal) {
  return callApi('supplyDetail', { id }, { signal, failureMessage: translate('supply:detail.fetchFailed') });
}

/** One request, loaded while an id is given (the detail drawer is open). */
export function useSupplyDetail(id: number | null) {
  return useQuery({
    queryKey: [...SUPPLY_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) => getSupplyDetail(id!, signal),
    enabled: id !== null,
  });
}
