import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import type { TScreenConfig } from '../utils/screens';

/** The preview call of a screen's renewals. */
function previewRoute(screen: TScreenConfig) {
  return screen.renewRoute === 'tokenIpRenew' ? 'tokenIpRenewPreview' : 'tokenVariableIpRenewPreview';
}

/**
 * Prices a renewal without making it (POST /token/ip/renew/preview or the
 * dynamic one): per proxy, in total, and which proxies the balance covers in
 * renewal order. Only asked for whole days in bounds.
 */
export function useRenewPreview(screen: TScreenConfig, tokenIds: number[], days: number | null) {
  return useQuery({
    queryKey: ['proxies', 'renew-preview', screen.renewRoute, tokenIds, days],
    queryFn: ({ signal }) =>
      callApi(
        previewRoute(screen),
        { token_ids: tokenIds, days: days ?? 1 },
        { signal, failureMessage: translate('proxies:renew.previewFailed') },
      ),
    enabled: tokenIds.length > 0 && days !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
