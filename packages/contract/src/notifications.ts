import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zFormBool, zId } from './validators';

/** A notification (spec section 3). */
export const ZNotification = z.object({
  notification_id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  is_read: z.boolean(),
  created_at: z.string(),
});
/** Parsed notification. */
export type TNotification = z.infer<typeof ZNotification>;

/** Notifications: the list and marking read. */
export const NOTIFICATION_ROUTES = {
  userNotificationList: defineRoute({
    method: 'GET',
    path: '/user/notification/list',
    auth: 'user',
    summary: 'Notifications, newest first',
    tag: 'user',
    input: ZPageQuery.extend({ unread: zFormBool }),
    output: zPage(ZNotification).extend({ unread: z.number().int() }),
  }),
  userNotificationMarkRead: defineRoute({
    method: 'POST',
    path: '/user/notification/mark_as_read',
    auth: 'user',
    body: 'form',
    summary: 'Mark a notification (or all with notification_id=all) as read',
    tag: 'user',
    input: z.object({ notification_id: z.union([zId, z.literal('all')]) }),
  }),
} as const satisfies Record<string, TRouteDef>;
