import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Checks one address (GET /v1/ip-quality/{ip}); failures say the spec's "IP check failed" with the reason. */
export function checkIpQuality(ip: string) {
  return callApi('ipQuality', { ip }, { failureMessage: translate('ip-quality:failed') });
}

/** Mutation of the check form: the latest answer stays in `data`. */
export function useCheckIpQuality() {
  return useMutation({ mutationFn: checkIpQuality });
}
