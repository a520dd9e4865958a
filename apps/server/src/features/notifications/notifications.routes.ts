import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listNotifications, markRead, sendOperatorMessage } from './notifications.service';

/** GET /user/notification/list and POST /user/notification/mark_as_read. */
export function createNotificationHandlers(deps: TDeps): THandlersOf<'notifications'> {
  return {
    async userNotificationList({ input, user, lang }) {
      return listNotifications(
        deps,
        user.id,
        { page: input.page, page_size: input.page_size, isUnreadOnly: input.unread },
        lang,
      );
    },
    async userNotificationMarkRead({ input, user }) {
      await markRead(deps, user.id, input.notification_id);
      return null;
    },
  };
}

/** Operators' messages to customers (under /admin/notifications). */
export function createNotificationAdminHandlers(deps: TDeps): THandlersOf<'notifications-admin'> {
  return {
    adminNotificationSend: ({ input }) => sendOperatorMessage(deps, input),
  };
}
