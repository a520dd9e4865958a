import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** The query key of the fair-use traffic (the operator's settings screen refreshes it after a change). */
export const FAIR_USE_QUERY_KEY = ['proxies', 'fair-use'] as const;

/**
 * The traffic per day an IP-billed dynamic proxy bought now includes (GET /token/fair-use), asked only while the
 * form is on that product; a failure shows nothing (the purchase itself is unaffected).
 */
export function useFairUse(isEnabled: boolean) {
  return useQuery({
    queryKey: FAIR_USE_QUERY_KEY,
    queryFn: ({ signal }) => callApi('tokenFairUse', undefined, { signal, skipTips: true }),
    enabled: isEnabled,
    retry: false,
  });
}
