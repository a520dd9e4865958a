import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { AREAS_QUERY_KEY, type TAreaOffer } from './area-countries';

/** Cities with inventory in a state (GET /token/list/area/city); failures say "failed to fetch cities". */
export function getAreaCities(
  category: TProxyCategory,
  countryId: string,
  stateId: string,
  signal?: AbortSignal,
  offer: TAreaOffer = {},
) {
  return callApi(
    'tokenAreaCities',
    { category, country_id: countryId, state_id: stateId, product: offer.product, billing: offer.billing },
    { signal, failureMessage: translate('common:areas.fetchCities') },
  );
}

/** Query options of a state's cities (for a product, when given). */
export function areaCitiesQueryOptions(
  category: TProxyCategory,
  countryId: string,
  stateId: string,
  offer: TAreaOffer = {},
) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'cities', countryId, stateId, offer.product ?? '', offer.billing ?? ''],
    queryFn: ({ signal }) => getAreaCities(category, countryId, stateId, signal, offer),
    staleTime: 60_000,
  });
}

/** The cities of a state (idle until a state is chosen). */
export function useAreaCities(
  category: TProxyCategory,
  countryId: string | undefined,
  stateId: string | undefined,
  offer: TAreaOffer = {},
) {
  return useQuery({
    ...areaCitiesQueryOptions(category, countryId ?? '', stateId ?? '', offer),
    enabled: Boolean(countryId && stateId),
  });
}
