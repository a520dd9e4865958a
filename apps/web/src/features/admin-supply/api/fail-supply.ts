import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Fails a pending or processing request with a reason (POST /admin/supply/fail/{id}): the fee is released. */
export function failSupply(id: number, reason: string) {
  return callApi('adminSupplyFail', { id, reason }, { failureMessage: translate('admin-supply:fail.failed') });
}
