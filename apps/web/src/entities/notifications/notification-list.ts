import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, type TCallOptions } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useIsSignedIn } from '../../lib/session';

/** Root key of the notification queries (GET /user/notification/list): the screen's pages and the header bell's count. */
export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

/** Which page of notifications, and whether only unread ones. */
export type TNotificationListParams = { page: number; pageSize: number; isUnreadOnly: boolean };

/** One page of notifications, newest first, with the unread count. */
export function getNotificationList(
  params: TNotificationListParams,
  options: Pick<TCallOptions, 'signal' | 'skipTips'> = {},
) {
  return callApi(
    'userNotificationList',
    { page: params.page, page_size: params.pageSize, ...(params.isUnreadOnly ? { unread: true } : {}) },
    options,
  );
}

/** Query options of a page of notifications. */
export function notificationListQueryOptions(params: TNotificationListParams) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, params],
    queryFn: ({ signal }) => getNotificationList(params, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** A page of notifications. */
export function useNotificationList(params: TNotificationListParams) {
  return useQuery(notificationListQueryOptions(params));
}

/** The smallest page: only its unread count is used. */
const COUNT_PARAMS: TNotificationListParams = { page: 1, pageSize: 1, isUnreadOnly: false };

/** Unread notification count for the header bell (polled every minute while signed in; not toasted, it is only a badge). */
export function useUnreadNotificationCount(): number {
  const isSignedIn = useIsSignedIn();
  const { data } = useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, COUNT_PARAMS],
    queryFn: ({ signal }) => getNotificationList(COUNT_PARAMS, { signal, skipTips: true }),
    enabled: isSignedIn,
    refetchInterval: 60_000,
  });
  return data?.unread ?? 0;
}

/** Reloads the notifications and the bell's count (after marking notifications read). */
export function refreshNotifications(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
}
