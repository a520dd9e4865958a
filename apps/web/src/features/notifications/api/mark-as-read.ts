import { useMutation } from '@tanstack/react-query';
import { refreshNotifications } from '../../../entities/notifications/notification-list';
import { callApi } from '../../../lib/api-client';

/** Marks one notification as read, or all of them with "all". */
export function markNotificationAsRead(notificationId: number | 'all') {
  return callApi('userNotificationMarkRead', { notification_id: notificationId });
}

/** Mutation of the read buttons; the list and the header bell's count reload afterwards. */
export function useMarkAsRead() {
  return useMutation({ mutationFn: markNotificationAsRead, onSettled: refreshNotifications });
}
