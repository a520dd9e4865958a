import { and, count, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { notifications, users, type TDbOrTx } from '@proxy/db';
import { countInPage, totalOfPage } from '../../lib/user-rows.repository';

/** A notification row. */
export type TNotificationRow = typeof notifications.$inferSelect;
/** What a new notification needs. */
export type TNewNotification = typeof notifications.$inferInsert;

/** Adds a notification. */
export async function insertNotification(db: TDbOrTx, row: TNewNotification): Promise<TNotificationRow> {
  const [inserted] = await db.insert(notifications).values(row).returning();
  return inserted;
}

/** One page of a user's notifications, newest first, with totals. */
export async function listNotificationsPage(
  db: TDbOrTx,
  userId: number,
  options: { limit: number; offset: number; isUnreadOnly: boolean },
): Promise<{ rows: TNotificationRow[]; total: number; unread: number }> {
  const mine = eq(notifications.userId, userId);
  const unreadFilter = and(mine, isNull(notifications.readAt));
  const where = options.isUnreadOnly ? unreadFilter : mine;
  // The page, its total and the unread count in one statement (an empty page counts apart).
  const rows = await db
    .select({
      ...getTableColumns(notifications),
      pageTotal: countInPage(notifications, where),
      unread: countInPage(notifications, unreadFilter, 'unread_total'),
    })
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.limit)
    .offset(options.offset);
  const total = await totalOfPage(options, rows, async () =>
    Number((await db.select({ total: count() }).from(notifications).where(where))[0].total),
  );
  const unread =
    rows[0]?.unread ?? Number((await db.select({ unread: count() }).from(notifications).where(unreadFilter))[0].unread);
  return { rows, total, unread };
}

/** Marks one of the user's notifications read (kept as first read); false when the user has no such notification. */
export async function markNotificationRead(db: TDbOrTx, userId: number, id: number, now: Date): Promise<boolean> {
  const unread = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  if (unread.length > 0) return true;
  const [existing] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .limit(1);
  return Boolean(existing);
}

/** Marks every unread notification of the user read; answers how many changed. */
export async function markAllNotificationsRead(db: TDbOrTx, userId: number, now: Date): Promise<number> {
  const changed = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return changed.length;
}

/** The same notification for every active account, in one statement; answers how many were written. */
export async function insertNotificationForActiveUsers(
  db: TDbOrTx,
  row: Omit<TNewNotification, 'userId'>,
): Promise<number> {
  const result = (await db.execute(sql`
    INSERT INTO ${notifications} (user_id, kind, title_zh, title_en, content_zh, content_en, created_at)
    SELECT ${users.id}, ${row.kind}, ${row.titleZh}, ${row.titleEn}, ${row.contentZh}, ${row.contentEn}, ${row.createdAt}
    FROM ${users} WHERE ${users.status} = 'active'
    RETURNING id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
