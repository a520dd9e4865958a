import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * Checks one address (GET /v1/ip-quality/{ip}). Failures are not toasted by
 * the request layer: the page shows the spec's "IP check failed" with the reason.
 */
export function checkIpQuality(ip: string) {
  return callApi('ipQuality', { ip }, { skipTips: true });
}

/** Mutation of the check form: the latest answer stays in `data`. */
export function useCheckIpQuality() {
  return useMutation({ mutationFn: checkIpQuality });
}
