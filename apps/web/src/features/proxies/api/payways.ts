import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';
import { isCancelled } from '../utils/failure';

/** Payment options of renewals (GET /token/payway/list); failures say "fetch payment options failed". */
export async function getPayways(signal?: AbortSignal) {
  try {
    return await callApi('tokenPaywayList', undefined, { signal, skipTips: true });
  } catch (error) {
    if (!isCancelled(error, signal)) showError(translate('proxies:errors.fetchPayways'));
    throw error;
  }
}

/** Query options of the payment options (fresh each time the dialog opens: they carry the balance). */
export function paywaysQueryOptions() {
  return queryOptions({ queryKey: ['proxies', 'payways'], queryFn: ({ signal }) => getPayways(signal), staleTime: 0, retry: false });
}

/** The payment options of the renew dialog, loaded while it is open. */
export function usePayways(isEnabled: boolean) {
  return useQuery({ ...paywaysQueryOptions(), enabled: isEnabled });
}
