import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';
import { isCancelled } from '../utils/failure';

/** States with inventory in a country (GET /token/list/area/state); failures say "failed to fetch states". */
export async function getAreaStates(category: TProxyCategory, countryId: string, signal?: AbortSignal) {
  try {
    return await callApi('tokenAreaStates', { category, country_id: countryId }, { signal, skipTips: true });
  } catch (error) {
    if (!isCancelled(error, signal)) showError(translate('proxies:errors.fetchStates'));
    throw error;
  }
}

/** Query options of a country's states. */
export function areaStatesQueryOptions(category: TProxyCategory, countryId: string) {
  return queryOptions({
    queryKey: ['proxies', 'areas', category, 'states', countryId],
    queryFn: ({ signal }) => getAreaStates(category, countryId, signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** The states of the chosen country (idle until a country is chosen). */
export function useAreaStates(category: TProxyCategory, countryId: string | undefined) {
  return useQuery({ ...areaStatesQueryOptions(category, countryId ?? ''), enabled: Boolean(countryId) });
}
