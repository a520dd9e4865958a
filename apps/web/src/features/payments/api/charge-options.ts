import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Query key of the recharge options (GET /pay/option/list). */
export const CHARGE_OPTIONS_QUERY_KEY = ['payments', 'options'] as const;

/** Amounts with their gifts, the methods that are on, the custom amount's bounds and whether the sandbox is on; failures say "fetch payment options failed". */
export function getChargeOptions(signal?: AbortSignal) {
  return callApi('payOptionList', undefined, { signal, failureMessage: translate('payments:errors.fetchOptions') });
}

/** Query options of the recharge options. */
export function chargeOptionsQueryOptions() {
  return queryOptions({
    queryKey: CHARGE_OPTIONS_QUERY_KEY,
    queryFn: ({ signal }) => getChargeOptions(signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** The recharge options. */
export function useChargeOptions() {
  return useQuery(chargeOptionsQueryOptions());
}
