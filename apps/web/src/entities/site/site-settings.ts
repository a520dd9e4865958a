import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** Query key of the console's run-time settings (GET /site/settings). */
export const SITE_SETTINGS_QUERY_KEY = ['site', 'settings'] as const;

/** Run-time settings: the help-center link (HELP_CENTER_URL, null when unset). */
export function getSiteSettings(signal?: AbortSignal) {
  return callApi('siteSettings', undefined, { signal, skipTips: true });
}

/** Query options of the settings; they change only with a restart of the server. */
export function siteSettingsQueryOptions() {
  return queryOptions({
    queryKey: SITE_SETTINGS_QUERY_KEY,
    queryFn: ({ signal }) => getSiteSettings(signal),
    staleTime: 5 * 60_000,
  });
}

/** The help-center link, or null while unknown or unset (the menu entry is hidden then). */
export function useHelpCenterUrl(): string | null {
  const { data } = useQuery(siteSettingsQueryOptions());
  return data?.help_center_url ?? null;
}
