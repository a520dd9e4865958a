import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { refreshUnreadNotificationCount } from '../../../lib/unread-notifications';
import { NOTIFICATIONS_QUERY_KEY } from './notification-list';

/** Marks one notification as read, or all of them with "all". */
export function markNotificationAsRead(notificationId: number | 'all') {
  return callApi('userNotificationMarkRead', { notification_id: notificationId });
}

/** Mutation of the read buttons; the list and the header bell's count reload afterwards. */
export function useMarkAsRead() {
  return useMutation({
    mutationFn: markNotificationAsRead,
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }), refreshUnreadNotificationCount()]),
  });
}
