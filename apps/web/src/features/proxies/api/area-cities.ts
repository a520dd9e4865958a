import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Cities with inventory in a state (GET /token/list/area/city); failures say "failed to fetch cities". */
export function getAreaCities(category: TProxyCategory, countryId: string, stateId: string, signal?: AbortSignal) {
  return callApi('tokenAreaCities', { category, country_id: countryId, state_id: stateId }, { signal, failureMessage: translate('proxies:errors.fetchCities') });
}

/** Query options of a state's cities. */
export function areaCitiesQueryOptions(category: TProxyCategory, countryId: string, stateId: string) {
  return queryOptions({
    queryKey: ['proxies', 'areas', category, 'cities', countryId, stateId],
    queryFn: ({ signal }) => getAreaCities(category, countryId, stateId, signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** The cities of the chosen state (idle until a state is chosen). */
export function useAreaCities(category: TProxyCategory, countryId: string | undefined, stateId: string | undefined) {
  return useQuery({ ...areaCitiesQueryOptions(category, countryId ?? '', stateId ?? ''), enabled: Boolean(countryId && stateId) });
}
