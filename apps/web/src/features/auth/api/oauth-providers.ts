import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** Sign-in options of this installation (which providers are enabled, whether an invite is required). */
export function getOAuthProviders() {
  return callApi('userOAuthProviders', undefined, { skipTips: true });
}

/** Query options of the sign-in options; they change only with the server's configuration. */
export function oauthProvidersQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'oauth-providers'],
    queryFn: getOAuthProviders,
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
}

/** The sign-in options; while loading or on failure, every provider counts as disabled. */
export function useOAuthProviders() {
  return useQuery(oauthProvidersQueryOptions());
}
