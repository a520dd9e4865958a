import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { proxyTokens, spiderRecords, type TDbOrTx } from '@proxy/db';

/** A stored endpoint file. */
export type TSpiderRow = typeof spiderRecords.$inferSelect;
/** A stored endpoint file with its token's username. */
export type TSpiderListRow = Omit<TSpiderRow, 'content'> & { tokenUsername: string };

/** Stores an endpoint file. */
export async function insertSpiderRecord(db: TDbOrTx, row: typeof spiderRecords.$inferInsert): Promise<TSpiderRow> {
  const [inserted] = await db.insert(spiderRecords).values(row).returning();
  return inserted;
}

/** One page of a user's endpoint files (optionally of one token), newest first, without their content. */
export async function listSpiderRecordsPage(
  db: TDbOrTx,
  userId: number,
  tokenId: number | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: TSpiderListRow[]; total: number }> {
  const parts: SQL[] = [eq(spiderRecords.userId, userId)];
  if (tokenId !== undefined) parts.push(eq(spiderRecords.tokenId, tokenId));
  const where = and(...parts)!;
  const s = spiderRecords;
  const rows = await db
    .select({
      id: s.id,
      userId: s.userId,
      tokenId: s.tokenId,
      params: s.params,
      lineCount: s.lineCount,
      createdAt: s.createdAt,
      tokenUsername: proxyTokens.username,
    })
    .from(s)
    .innerJoin(proxyTokens, eq(proxyTokens.id, s.tokenId))
    .where(where)
    .orderBy(desc(s.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(s).where(where);
  return { rows, total: Number(total) };
}

/** A user's endpoint file by id (someone else's answers undefined). */
export async function findSpiderRecord(db: TDbOrTx, userId: number, id: number): Promise<TSpiderRow | undefined> {
  const [row] = await db
    .select()
    .from(spiderRecords)
    .where(and(eq(spiderRecords.userId, userId), eq(spiderRecords.id, id)))
    .limit(1);
  return row;
}
