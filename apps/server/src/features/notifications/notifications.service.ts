import { interpolate, type TLang, type TNotification, type TPage } from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { NOTIFICATION_TEXTS, type TNotificationKind } from './notification-texts';
import { findUserById } from '../accounts/accounts.repository';
import {
  insertNotification,
  insertNotificationForActiveUsers,
  listNotificationsPage,
  markAllNotificationsRead,
  markNotificationRead,
  type TNotificationRow,
} from './notifications.repository';

/**
 * Writes one of the system's notifications (both languages) for a user, inside
 * the caller's transaction when given; `params` fill the texts' `{placeholders}`.
 */
export async function writeNotification(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  kind: TNotificationKind,
  tx?: TDbOrTx,
  params?: Record<string, string | number>,
): Promise<TNotificationRow> {
  const text = NOTIFICATION_TEXTS[kind];
  return insertNotification(tx ?? deps.db, {
    userId,
    kind,
    titleZh: interpolate(text.zh.title, params),
    titleEn: interpolate(text.en.title, params),
    contentZh: interpolate(text.zh.content, params),
    contentEn: interpolate(text.en.content, params),
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
  return {
    records: rows.map((r) => toNotification(r, lang)),
    total,
    page: query.page,
    page_size: query.page_size,
    unread,
  };
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

/** POST /admin/notifications/send: an operator's message to one customer or to every active account. */
export async function sendOperatorMessage(
  deps: Pick<TDeps, 'db' | 'clock'>,
  input: { user_id?: number; title_zh: string; title_en: string; content_zh: string; content_en: string },
): Promise<{ sent: number }> {
  const params = {
    title_zh: input.title_zh,
    title_en: input.title_en,
    content_zh: input.content_zh,
    content_en: input.content_en,
  };
  if (input.user_id !== undefined) {
    if (!(await findUserById(deps.db, input.user_id)))
      throw new AppError('BAD_REQUEST', undefined, [{ path: 'user_id', message: 'userNotFound' }]);
    // In a transaction: the operator call's audit entry is written in it (features/audit).
    await deps.db.transaction((tx) => writeNotification(deps, input.user_id!, 'operator_message', tx, params));
    return { sent: 1 };
  }
  const text = NOTIFICATION_TEXTS.operator_message;
  const sent = await deps.db.transaction((tx) =>
    insertNotificationForActiveUsers(tx, {
      kind: 'operator_message',
      titleZh: interpolate(text.zh.title, params),
      titleEn: interpolate(text.en.title, params),
      contentZh: interpolate(text.zh.content, params),
      contentEn: interpolate(text.en.content, params),
      createdAt: deps.clock.now(),
    }),
  );
  return { sent };
}
