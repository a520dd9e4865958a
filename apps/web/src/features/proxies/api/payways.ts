import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Payment options of renewals (GET /token/payway/list); failures say "fetch payment options failed". */
export function getPayways(signal?: AbortSignal) {
  return callApi('tokenPaywayList', undefined, { signal, failureMessage: translate('proxies:errors.fetchPayways') });
}

/** Query options of the payment options (fresh each time the dialog opens: they carry the balance). */
export function paywaysQueryOptions() {
  return queryOptions({
    queryKey: ['proxies', 'payways'],
    queryFn: ({ signal }) => getPayways(signal),
    staleTime: 0,
    retry: false,
  });
}

/** The payment options of the renew dialog, loaded while it is open. */
export function usePayways(isEnabled: boolean) {
  return useQuery({ ...paywaysQueryOptions(), enabled: isEnabled });
}
