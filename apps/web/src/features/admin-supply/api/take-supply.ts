import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Takes a pending request (POST /admin/supply/take/{id}): it becomes processing. */
export function takeSupply(id: number) {
  return callApi('adminSupplyTake', { id }, { failureMessage: translate('admin-supply:take.failed') });
}
