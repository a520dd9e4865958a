import { queryOptions, useQuery } from '@tanstack/react-query';
import { CLAIMS, type TRouteOutput } from '@proxy/contract/light';
import { callApi } from '../../lib/api-client';

/** Query key of the console's run-time settings (GET /site/settings). */
export const SITE_SETTINGS_QUERY_KEY = ['site', 'settings'] as const;

/** Run-time settings: the help-center link (HELP_CENTER_URL, null when unset) and the marketing figures. */
export function getSiteSettings(signal?: AbortSignal) {
  return callApi('siteSettings', undefined, { signal, skipTips: true });
}

/** Query options of the settings: the link changes with a restart of the server, the figures when an operator saves. */
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

/** The marketing figures shown (spec section 1). */
export type TClaimFigures = TRouteOutput<'siteSettings'>['claims'];

/** The spec's figures (CLAIMS), shown while the operator's are loading or cannot be read. */
export const DEFAULT_CLAIMS: TClaimFigures = {
  residential_ips: CLAIMS.residentialIps,
  countries: CLAIMS.countries,
  uptime: CLAIMS.uptime,
};

/** The marketing figures the operator set (docs/operator-guide.md, "Marketing figures"), the defaults meanwhile. */
export function useClaims(): TClaimFigures {
  const { data } = useQuery(siteSettingsQueryOptions());
  return data?.claims ?? DEFAULT_CLAIMS;
}
