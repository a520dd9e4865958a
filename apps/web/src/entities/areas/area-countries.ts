import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi, type TCallOptions } from '../../lib/api-client';
import { translate } from '../../lib/i18n';

/** Root key of the area lists (countries, states, cities), by category. */
export const AREAS_QUERY_KEY = ['areas'] as const;

/** Countries with inventory for a category (GET /token/list/area/countries); failures say "failed to fetch countries" unless skipTips. */
export function getAreaCountries(category: TProxyCategory, options: Pick<TCallOptions, 'signal' | 'skipTips'> = {}) {
  return callApi(
    'tokenAreaCountries',
    { category },
    { ...options, failureMessage: translate('common:areas.fetchCountries') },
  );
}

/** Query options of a category's countries. */
export function areaCountriesQueryOptions(category: TProxyCategory, options: Pick<TCallOptions, 'skipTips'> = {}) {
  return queryOptions({
    queryKey: [...AREAS_QUERY_KEY, category, 'countries'],
    queryFn: ({ signal }) => getAreaCountries(category, { ...options, signal }),
    staleTime: 60_000,
  });
}

/** The countries of a category (idle while not enabled; skipTips for a screen that can do without them). */
export function useAreaCountries(category: TProxyCategory, options: { isEnabled?: boolean; skipTips?: boolean } = {}) {
  const { isEnabled = true, skipTips } = options;
  return useQuery({ ...areaCountriesQueryOptions(category, { skipTips }), enabled: isEnabled });
}
