import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TAlertSettings } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Query key of the alert settings (GET /user/alerts/settings). */
export const ALERT_SETTINGS_QUERY_KEY = ['alerts', 'settings'] as const;

/** The user's alert settings. */
export function getAlertSettings(signal?: AbortSignal) {
  return callApi('userAlertSettingsGet', undefined, { signal, failureMessage: translate('users:alerts.loadFailed') });
}

/** The alert settings of the user centre's card. */
export function useAlertSettings() {
  return useQuery(
    queryOptions({
      queryKey: ALERT_SETTINGS_QUERY_KEY,
      queryFn: ({ signal }) => getAlertSettings(signal),
      staleTime: 0,
      retry: false,
    }),
  );
}

/** Saves the alert settings (PUT /user/alerts/settings); alert e-mails then go out in the console's language. */
export function saveAlertSettings(settings: TAlertSettings) {
  return callApi('userAlertSettingsPut', settings);
}

/** Mutation of the card's "Save" button; the card shows the saved settings. */
export function useSaveAlertSettings() {
  return useMutation({
    mutationFn: saveAlertSettings,
    onSuccess: (saved) => queryClient.setQueryData(ALERT_SETTINGS_QUERY_KEY, saved),
  });
}
