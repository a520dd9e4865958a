import type { TLang, TNotification, TPage } from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { NOTIFICATION_TEXTS, type TNotificationKind } from './notification-texts';
import { insertNotification, listNotificationsPage, markAllNotificationsRead, markNotificationRead, type TNotificationRow } from './notifications.repository';

/** Writes one of the system's notifications (both languages) for a user, inside the caller's transaction when given. */
export async function writeNotification(deps: Pick<TDeps, 'db' | 'clock'>, userId: number, kind: TNotificationKind, tx?: TDbOrTx): Promise<TNotificationRow> {
  const text = NOTIFICATION_TEXTS[kind];
  return insertNotification(tx ?? deps.db, {
    userId,
    kind,
    titleZh: text.zh.title,
    titleEn: text.en.title,
    contentZh: text.zh.content,
    contentEn: text.en.content,
    createdAt: deps.clock.now(),
  });
}

/** A notification as the API shows it, in one language. */
export function toNotification(row: TNotificationRow, lang: TLang): TNotification {
  return {
    notification_id: row.id,
    kind: row.kind,
    title: lang === 'zh' ? row.titleZh : row.titleEn,
    content: lang === 'zh' ? row.contentZh : row.contentEn,
    is_read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A page of the user's notifications, newest first, plus the unread count. */
export async function listNotifications(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: { page: number; page_size: number; isUnreadOnly: boolean },
  lang: TLang,
): Promise<TPage<TNotification> & { unread: number }> {
  const { rows, total, unread } = await listNotificationsPage(deps.db, userId, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
    isUnreadOnly: query.isUnreadOnly,
  });
  return { records: rows.map((r) => toNotification(r, lang)), total, page: query.page, page_size: query.page_size, unread };
}

/** Marks one notification (or all with 'all') read; another user's id is NOTIFICATION_NOT_FOUND. */
export async function markRead(deps: Pick<TDeps, 'db' | 'clock'>, userId: number, id: number | 'all'): Promise<void> {
  const now = deps.clock.now();
  if (id === 'all') {
    await markAllNotificationsRead(deps.db, userId, now);
    return;
  }
  const isFound = await markNotificationRead(deps.db, userId, id, now);
  if (!isFound) throw new AppError('NOTIFICATION_NOT_FOUND');
}
