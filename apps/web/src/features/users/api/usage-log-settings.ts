import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TUsageLogSettingsBody } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Query key of the usage log setting (GET /user/usage-log/settings). */
export const USAGE_LOG_SETTINGS_QUERY_KEY = ['usage-log', 'settings'] as const;

/** The account's usage log setting. */
export function getUsageLogSettings(signal?: AbortSignal) {
  return callApi('userUsageLogSettings', undefined, { signal, failureMessage: translate('users:usageLog.loadFailed') });
}

/** The setting of the user centre's usage log card. */
export function useUsageLogSettings() {
  return useQuery(
    queryOptions({
      queryKey: USAGE_LOG_SETTINGS_QUERY_KEY,
      queryFn: ({ signal }) => getUsageLogSettings(signal),
      staleTime: 0,
      retry: false,
    }),
  );
}

/** Saves the setting (PUT /user/usage-log/settings): the gateways apply it at once. */
export function useSaveUsageLogSettings() {
  return useMutation({
    mutationFn: (body: TUsageLogSettingsBody) => callApi('userUsageLogSettingsUpdate', body),
    onSuccess: (saved) => queryClient.setQueryData(USAGE_LOG_SETTINGS_QUERY_KEY, saved),
  });
}
