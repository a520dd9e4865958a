import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { AREAS_QUERY_KEY, type TAreaOffer } from './area-countries';

/** States with inventory in a country (GET /token/list/area/state); failures say "failed to fetch states". */
export function getAreaStates(
  category: TProxyCategory,
  countryId: string,
  signal?: AbortSignal,
  offer: TAreaOffer = {},
) {
  return callApi(
    'tokenAreaStates',
    { category, country_id: countryId, product: offer.product, billing: offer.billing },
    { signal, failureMessage: translate('common:areas.fetchStates') },
  );
}

/** Query options of a country's states (for a product, when given). */
export function areaStatesQueryOptions(category: TProxyCategory, countryId: string, offer: TAreaOffer = {}) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'states', countryId, offer.product ?? '', offer.billing ?? ''],
    queryFn: ({ signal }) => getAreaStates(category, countryId, signal, offer),
    staleTime: 60_000,
  });
}

/** The states of a country (idle until a country is chosen). */
export function useAreaStates(category: TProxyCategory, countryId: string | undefined, offer: TAreaOffer = {}) {
  return useQuery({ ...areaStatesQueryOptions(category, countryId ?? '', offer), enabled: Boolean(countryId) });
}
