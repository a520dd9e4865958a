import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** Root key of this screen's notification queries, for invalidation. */
export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

/** Which page of notifications, and whether only unread ones. */
export type TNotificationListParams = { page: number; pageSize: number; isUnreadOnly: boolean };

/** One page of notifications, newest first, with the unread count. */
export function getNotificationList(params: TNotificationListParams, signal?: AbortSignal) {
  return callApi(
    'userNotificationList',
    { page: params.page, page_size: params.pageSize, ...(params.isUnreadOnly ? { unread: true } : {}) },
    { signal },
  );
}

/** Query options of a page of notifications. */
export function notificationListQueryOptions(params: TNotificationListParams) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'list', params],
    queryFn: ({ signal }) => getNotificationList(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** A page of notifications. */
export function useNotificationList(params: TNotificationListParams) {
  return useQuery(notificationListQueryOptions(params));
}
