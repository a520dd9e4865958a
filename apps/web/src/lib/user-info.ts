import { useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { deriveRoles } from '@proxy/contract';
import { callApi } from './api-client';
import { queryClient } from './query-client';
import { useIsSignedIn } from './session';

/** Query key of the signed-in user's info (GET /user/info). */
export const USER_INFO_QUERY_KEY = ['user', 'info'] as const;

/** Query options of the user info; screens may use them with ensureQueryData. */
export function userInfoQueryOptions() {
  return queryOptions({
    queryKey: USER_INFO_QUERY_KEY,
    queryFn: ({ signal }) => callApi('userInfo', undefined, { signal }),
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

/** Reloads the user info (e.g. after a balance change). */
export function refreshUserInfo(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
}
