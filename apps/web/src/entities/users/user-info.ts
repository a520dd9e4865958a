import { useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { deriveRoles } from '@proxy/contract/light';
import { callApi } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { showError } from '../../lib/message';
import { queryClient } from '../../lib/query-client';
import { useIsSignedIn } from '../../lib/session';

/** Query key of the signed-in user's info (GET /user/info): name, balance, API key... */
export const USER_INFO_QUERY_KEY = ['user', 'info'] as const;

/** The signed-in user's info (money in yuan). */
export function getUserInfo(signal?: AbortSignal) {
  return callApi('userInfo', undefined, { signal });
}

/** Query options of the user info; screens may use them with ensureQueryData. */
export function userInfoQueryOptions() {
  return queryOptions({
    queryKey: USER_INFO_QUERY_KEY,
    queryFn: ({ signal }) => getUserInfo(signal),
    staleTime: 30_000,
  });
}

/** The signed-in user's info; does not run while signed out. */
export function useUserInfo() {
  const isSignedIn = useIsSignedIn();
  return useQuery({ ...userInfoQueryOptions(), enabled: isSignedIn });
}

/** Roles derived from total_balance (spec section 6); empty until the info has loaded. */
export function useRoles(): string[] {
  const { data } = useUserInfo();
  const totalBalance = data?.total_balance;
  return useMemo(() => (totalBalance === undefined ? [] : deriveRoles(totalBalance)), [totalBalance]);
}

/** True when the route's roles allow a user with these roles (spec section 5). */
export function hasRequiredRole(required: readonly string[] | undefined, roles: readonly string[]): boolean {
  return !required || required.length === 0 || required.some((role) => roles.includes(role));
}

/**
 * Reloads the user info after money moved (a purchase, a renewal, the
 * balance card's refresh button); says "balance refresh failed" (spec
 * section 8) when it cannot. Resolves true when the balance was reloaded.
 */
export async function refreshBalance(): Promise<boolean> {
  await queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
  const isReloaded = queryClient.getQueryState(USER_INFO_QUERY_KEY)?.status !== 'error';
  if (!isReloaded) showError(translate('common:balance.refreshFailed'));
  return isReloaded;
}
