import { useQuery } from '@tanstack/react-query';
import { callApi } from './api-client';
import { queryClient } from './query-client';
import { useIsSignedIn } from './session';

/** Query key of the header bell's unread count; screens that mark notifications read invalidate it. */
export const UNREAD_NOTIFICATIONS_QUERY_KEY = ['user', 'notifications', 'unread'] as const;

/** Unread notification count for the header bell (polled every minute while signed in). */
export function useUnreadNotificationCount(): number {
  const isSignedIn = useIsSignedIn();
  const { data } = useQuery({
    queryKey: UNREAD_NOTIFICATIONS_QUERY_KEY,
    queryFn: ({ signal }) => callApi('userNotificationList', { page: 1, page_size: 1 }, { signal, skipTips: true }),
    enabled: isSignedIn,
    refetchInterval: 60_000,
  });
  return data?.unread ?? 0;
}

/** Reloads the unread count (after marking notifications read). */
export function refreshUnreadNotificationCount(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: UNREAD_NOTIFICATIONS_QUERY_KEY });
}
