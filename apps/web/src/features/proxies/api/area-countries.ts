import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';
import { isCancelled } from '../utils/failure';

/** Countries with inventory for a category (GET /token/list/area/countries); failures say "failed to fetch countries". */
export async function getAreaCountries(category: TProxyCategory, signal?: AbortSignal) {
  try {
    return await callApi('tokenAreaCountries', { category }, { signal, skipTips: true });
  } catch (error) {
    if (!isCancelled(error, signal)) showError(translate('proxies:errors.fetchCountries'));
    throw error;
  }
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
