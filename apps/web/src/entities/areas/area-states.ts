import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { AREAS_QUERY_KEY } from './area-countries';

/** States with inventory in a country (GET /token/list/area/state); failures say "failed to fetch states". */
export function getAreaStates(category: TProxyCategory, countryId: string, signal?: AbortSignal) {
  return callApi(
    'tokenAreaStates',
    { category, country_id: countryId },
    { signal, failureMessage: translate('common:areas.fetchStates') },
  );
}

/** Query options of a country's states. */
export function areaStatesQueryOptions(category: TProxyCategory, countryId: string) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'states', countryId],
    queryFn: ({ signal }) => getAreaStates(category, countryId, signal),
    staleTime: 60_000,
  });
}

/** The states of a country (idle until a country is chosen). */
export function useAreaStates(category: TProxyCategory, countryId: string | undefined) {
  return useQuery({ ...areaStatesQueryOptions(category, countryId ?? ''), enabled: Boolean(countryId) });
}
