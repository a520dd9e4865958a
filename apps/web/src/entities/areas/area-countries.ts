import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyBilling, TProxyCategory, TProxyProduct } from '@proxy/contract';
import { callApi, type TCallOptions } from '../../lib/api-client';
import { translate } from '../../lib/i18n';

/** Root key of the area lists (countries, states, cities), by category. */
export const AREAS_QUERY_KEY = ['areas'] as const;

/**
 * The product an area list is for (the purchase form's): the areas it can be bought in, each saying what serves it
 * and whether it can be bought now. Left out (the endpoint generator, supply requests): the exits' areas.
 */
export type TAreaOffer = { product?: TProxyProduct; billing?: TProxyBilling };

/** Countries with inventory for a category (GET /token/list/area/countries); failures say "failed to fetch countries" unless skipTips. */
export function getAreaCountries(
  category: TProxyCategory,
  options: Pick<TCallOptions, 'signal' | 'skipTips'> = {},
  offer: TAreaOffer = {},
) {
  return callApi(
    'tokenAreaCountries',
    { category, product: offer.product, billing: offer.billing },
    { ...options, failureMessage: translate('common:areas.fetchCountries') },
  );
}

/** Query options of a category's countries (for a product, when given). */
export function areaCountriesQueryOptions(
  category: TProxyCategory,
  options: Pick<TCallOptions, 'skipTips'> = {},
  offer: TAreaOffer = {},
) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'countries', offer.product ?? '', offer.billing ?? ''],
    queryFn: ({ signal }) => getAreaCountries(category, { ...options, signal }, offer),
    staleTime: 60_000,
  });
}

/** The countries of a category (idle while not enabled; skipTips for a screen that can do without them; offer: for a product). */
export function useAreaCountries(
  category: TProxyCategory,
  options: { isEnabled?: boolean; skipTips?: boolean; offer?: TAreaOffer } = {},
) {
  const { isEnabled = true, skipTips, offer } = options;
  return useQuery({ ...areaCountriesQueryOptions(category, { skipTips }, offer), enabled: isEnabled });
}
