import { desc } from 'drizzle-orm';
import { siteNotices, type TDbOrTx } from '@proxy/db';

/** A published notice. */
export type TSiteNoticeRow = typeof siteNotices.$inferSelect;

/** The notice published last, or null. */
export async function findLatestNotice(db: TDbOrTx): Promise<TSiteNoticeRow | null> {
  const [row] = await db.select().from(siteNotices).orderBy(desc(siteNotices.id)).limit(1);
  return row ?? null;
}

/** Publishes a notice (a new row; earlier ones stay as history). */
export async function insertNotice(db: TDbOrTx, row: typeof siteNotices.$inferInsert): Promise<TSiteNoticeRow> {
  const [inserted] = await db.insert(siteNotices).values(row).returning();
  return inserted;
}
