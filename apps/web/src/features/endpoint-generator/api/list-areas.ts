import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TProxyCategory } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

// Failures show the spec's "fetch country/state/city failed".

/** Countries with inventory (GET /token/list/area/countries). */
export function listCountries(category: TProxyCategory, signal?: AbortSignal) {
  return callApi('tokenAreaCountries', { category }, { signal, failureMessage: translate('endpoint-generator:errors.countries') });
}

/** States of a country (GET /token/list/area/state). */
export function listStates(category: TProxyCategory, countryId: string, signal?: AbortSignal) {
  return callApi('tokenAreaStates', { category, country_id: countryId }, { signal, failureMessage: translate('endpoint-generator:errors.states') });
}

/** Cities of a state (GET /token/list/area/city). */
export function listCities(category: TProxyCategory, countryId: string, stateId: string, signal?: AbortSignal) {
  return callApi('tokenAreaCities', { category, country_id: countryId, state_id: stateId }, { signal, failureMessage: translate('endpoint-generator:errors.cities') });
}

const STALE_MS = 60_000;

/** Countries of a category. */
export function useCountries(category: TProxyCategory, isEnabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['endpoint-generator', 'areas', category],
      queryFn: ({ signal }) => listCountries(category, signal),
      enabled: isEnabled,
      staleTime: STALE_MS,
      retry: false,
    }),
  );
}

/** States of the chosen country. */
export function useStates(category: TProxyCategory, countryId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: ['endpoint-generator', 'areas', category, countryId],
      queryFn: ({ signal }) => listStates(category, countryId!, signal),
      enabled: Boolean(countryId),
      staleTime: STALE_MS,
      retry: false,
    }),
  );
}

/** Cities of the chosen state. */
export function useCities(category: TProxyCategory, countryId: string | undefined, stateId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: ['endpoint-generator', 'areas', category, countryId, stateId],
      queryFn: ({ signal }) => listCities(category, countryId!, stateId!, signal),
      enabled: Boolean(countryId && stateId),
      staleTime: STALE_MS,
      retry: false,
    }),
  );
}
