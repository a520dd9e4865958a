import { and, count, desc, eq, sql } from 'drizzle-orm';
import { ipListEntries, type TDbOrTx } from '@proxy/db';
import type { TIpList } from '@proxy/contract';

/** A stored IP list entry. */
export type TIpListEntryRow = typeof ipListEntries.$inferSelect;
/** What a new entry needs. */
export type TNewIpListEntry = typeof ipListEntries.$inferInsert;
/** The normalised range of a stored entry (what makes two entries duplicates). */
export type TIpListRangeKey = Pick<TIpListEntryRow, 'family' | 'startHex' | 'endHex'>;

/**
 * Serialises changes to one user's list until the transaction ends, so two
 * parallel adds cannot both pass the duplicate and size checks.
 */
export async function lockIpList(tx: TDbOrTx, userId: number, list: TIpList): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`ip-list:${userId}:${list}`}))`);
}

/** Normalised ranges of every entry in a user's list (at most the per-list cap). */
export async function listIpListRanges(db: TDbOrTx, userId: number, list: TIpList): Promise<TIpListRangeKey[]> {
  return db
    .select({ family: ipListEntries.family, startHex: ipListEntries.startHex, endHex: ipListEntries.endHex })
    .from(ipListEntries)
    .where(and(eq(ipListEntries.userId, userId), eq(ipListEntries.list, list)));
}

/** One page of a user's list, newest first, with the total. */
export async function listIpListPage(
  db: TDbOrTx,
  userId: number,
  list: TIpList,
  options: { limit: number; offset: number },
): Promise<{ rows: TIpListEntryRow[]; total: number }> {
  const where = and(eq(ipListEntries.userId, userId), eq(ipListEntries.list, list));
  const rows = await db
    .select()
    .from(ipListEntries)
    .where(where)
    .orderBy(desc(ipListEntries.createdAt), desc(ipListEntries.id))
    .limit(options.limit)
    .offset(options.offset);
  const [{ total }] = await db.select({ total: count() }).from(ipListEntries).where(where);
  return { rows, total: Number(total) };
}

/** Adds entries; answers them in the given order. */
export async function insertIpListEntries(db: TDbOrTx, rows: TNewIpListEntry[]): Promise<TIpListEntryRow[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(ipListEntries).values(rows).returning();
  // RETURNING order follows VALUES order in practice; sort by id to rely on nothing.
  return inserted.sort((a, b) => a.id - b.id);
}

/** Deletes one of the user's entries (either list); answers it, or undefined when the user has no such entry. */
export async function deleteIpListEntry(db: TDbOrTx, userId: number, id: number): Promise<TIpListEntryRow | undefined> {
  const [deleted] = await db
    .delete(ipListEntries)
    .where(and(eq(ipListEntries.id, id), eq(ipListEntries.userId, userId)))
    .returning();
  return deleted;
}
