import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { AREAS_QUERY_KEY } from './area-countries';

/** Cities with inventory in a state (GET /token/list/area/city); failures say "failed to fetch cities". */
export function getAreaCities(category: TProxyCategory, countryId: string, stateId: string, signal?: AbortSignal) {
  return callApi(
    'tokenAreaCities',
    { category, country_id: countryId, state_id: stateId },
    { signal, failureMessage: translate('common:areas.fetchCities') },
  );
}

/** Query options of a state's cities. */
export function areaCitiesQueryOptions(category: TProxyCategory, countryId: string, stateId: string) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'cities', countryId, stateId],
    queryFn: ({ signal }) => getAreaCities(category, countryId, stateId, signal),
    staleTime: 60_000,
  });
}

/** The cities of a state (idle until a state is chosen). */
export function useAreaCities(category: TProxyCategory, countryId: string | undefined, stateId: string | undefined) {
  return useQuery({
    ...areaCitiesQueryOptions(category, countryId ?? '', stateId ?? ''),
    enabled: Boolean(countryId && stateId),
  });
}
