import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Completes a processing request (POST /admin/supply/complete/{id}): the fee is consumed and the proxies allocated; a short region says what it lacks. */
export function completeSupply(id: number) {
  return callApi('adminSupplyComplete', { id }, { failureMessage: translate('admin-supply:complete.failed') });
}
