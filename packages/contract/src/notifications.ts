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
    isCachedPerUser: true,
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

const messageText = (max: number) =>
  z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(max, { error: 'tooLong' });

/** An operator's message to one customer (user_id) or to every active account (no user_id), in both languages. */
export const ZNotificationSendBody = z.object({
  user_id: z
    .number({ error: 'invalidValue' })
    .int({ error: 'invalidValue' })
    .positive({ error: 'invalidValue' })
    .optional(),
  title_zh: messageText(100),
  title_en: messageText(100),
  content_zh: messageText(2000),
  content_en: messageText(2000),
});

/** Operators: send a notification to one customer or to all. */
export const NOTIFICATION_ADMIN_ROUTES = {
  adminNotificationSend: defineRoute({
    method: 'POST',
    path: '/admin/notifications/send',
    auth: 'admin',
    body: 'json',
    summary:
      'Send a notification (zh and en) to one customer (user_id) or to every active account; answers how many received it',
    tag: 'admin',
    input: ZNotificationSendBody,
    output: z.object({ sent: z.number().int() }),
  }),
} as const satisfies Record<string, TRouteDef>;
