import { useMutation, useQuery } from '@tanstack/react-query';
import { SITE_SETTINGS_QUERY_KEY } from '../../../entities/site/site-settings';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

const SYSTEM_SETTINGS_KEY = ['admin', 'system-settings'] as const;
const CLAIMS_STOCK_KEY = ['admin', 'claims-stock'] as const;

/** The marketing figures as the console shows them to everyone. */
export type TClaimsValues = { claim_residential_ips: string; claim_countries: number; claim_uptime: string };

/** The installation's settings, the marketing figures among them. */
export function useSystemSettings() {
  return useQuery({
    queryKey: SYSTEM_SETTINGS_KEY,
    queryFn: ({ signal }) =>
      callApi('adminSystemSettings', undefined, { signal, failureMessage: translate('admin-site:errors.loadClaims') }),
  });
}

/** The countries actually in stock: active exits and enabled pools. */
export function useClaimsStock() {
  return useQuery({
    queryKey: CLAIMS_STOCK_KEY,
    queryFn: ({ signal }) =>
      callApi('adminSystemClaimsStock', undefined, {
        signal,
        failureMessage: translate('admin-site:errors.loadStock'),
      }),
  });
}

/** Saves the marketing figures; every page that shows them (this console's too) reloads them. */
export function useSaveClaims() {
  return useMutation({
    mutationFn: (values: TClaimsValues) =>
      callApi('adminSystemSettingsUpdate', values, { failureMessage: translate('admin-site:errors.saveClaims') }),
    onSuccess: (settings) => queryClient.setQueryData(SYSTEM_SETTINGS_KEY, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_QUERY_KEY }),
  });
}
