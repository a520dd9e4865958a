import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Countries with inventory for a category (GET /token/list/area/countries); failures say "failed to fetch countries". */
export function getAreaCountries(category: TProxyCategory, signal?: AbortSignal) {
  return callApi('tokenAreaCountries', { category }, { signal, failureMessage: translate('proxies:errors.fetchCountries') });
}

/** Query options of the country list. */
export function areaCountriesQueryOptions(category: TProxyCategory) {
  return queryOptions({
    queryKey: ['proxies', 'areas', category, 'countries'],
    queryFn: ({ signal }) => getAreaCountries(category, signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** The countries of the purchase form. */
export function useAreaCountries(category: TProxyCategory, isEnabled = true) {
  return useQuery({ ...areaCountriesQueryOptions(category), enabled: isEnabled });
}
