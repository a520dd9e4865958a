import { useMutation, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** What a cancel link would cancel (GET /token/auto-renew/cancel, no token); the page shows a refusal itself. */
export function useRenewalCancelInfo(token: string) {
  return useQuery({
    queryKey: ['renewal-cancel', token],
    queryFn: ({ signal }) => callApi('renewalCancelInfo', { token }, { signal, skipTips: true }),
    enabled: token !== '',
    retry: false,
  });
}

/** Cancels the renewal of the link (POST /token/auto-renew/cancel): auto-renew of that proxy turns off; works once. */
export function useCancelRenewal() {
  return useMutation({ mutationFn: (token: string) => callApi('renewalCancel', { token }, { skipTips: true }) });
}
