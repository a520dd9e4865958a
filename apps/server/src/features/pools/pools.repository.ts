import { and, asc, count, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { poolHealth, pools, type TDbOrTx } from '@proxy/db';
import type { TPoolLastCheck, TPoolQuery } from '@proxy/contract';

/** A pool row (its password sealed). */
export type TPoolRow = typeof pools.$inferSelect;
/** What a new pool needs. */
export type TNewPool = typeof pools.$inferInsert;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A page of pools by id, filtered by status, kind and a keyword in the name or an endpoint's host. */
export async function listPools(db: TDbOrTx, query: TPoolQuery): Promise<{ records: TPoolRow[]; total: number }> {
  const parts: SQL[] = [];
  if (query.status) parts.push(eq(pools.status, query.status));
  if (query.kind) parts.push(eq(pools.kind, query.kind));
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword)}%`;
    parts.push(or(ilike(pools.name, pattern), ilike(sql`${pools.endpoints}::text`, pattern))!);
  }
  const where = parts.length ? and(...parts) : undefined;
  const [records, [{ n }]] = await Promise.all([
    db
      .select()
      .from(pools)
      .where(where)
      .orderBy(asc(pools.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ n: count() }).from(pools).where(where),
  ]);
  return { records, total: Number(n) };
}

/** One pool; locked (FOR UPDATE) when `isLocked`. */
export async function findPool(db: TDbOrTx, id: number, isLocked = false): Promise<TPoolRow | undefined> {
  const query = db.select().from(pools).where(eq(pools.id, id));
  const [row] = isLocked ? await query.for('update') : await query;
  return row;
}

/** Another pool's id with this name (without case), if any. */
export async function findPoolNamed(db: TDbOrTx, name: string, exceptId = 0): Promise<number | undefined> {
  const [row] = await db
    .select({ id: pools.id })
    .from(pools)
    .where(and(sql`lower(${pools.name}) = lower(${name})`, sql`${pools.id} <> ${exceptId}`))
    .limit(1);
  return row?.id;
}

/** Inserts a pool; answers its row. */
export async function insertPool(db: TDbOrTx, row: TNewPool): Promise<TPoolRow> {
  const [inserted] = await db.insert(pools).values(row).returning();
  return inserted;
}

/** Changes a pool (an operator's change: updated_at moves); answers the row. */
export async function updatePool(db: TDbOrTx, id: number, changes: Partial<TNewPool>): Promise<TPoolRow> {
  const [row] = await db
    .update(pools)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(pools.id, id))
    .returning();
  return row;
}

/** Records what a check found (not an operator's change of the pool: updated_at stays). */
export async function recordPoolCheck(db: TDbOrTx, id: number, check: TPoolLastCheck): Promise<boolean> {
  const rows = await db.update(pools).set({ lastCheck: check }).where(eq(pools.id, id)).returning({ id: pools.id });
  return rows.length > 0;
}

/** Deletes a pool. */
export async function deletePool(db: TDbOrTx, id: number): Promise<void> {
  await db.delete(pools).where(eq(pools.id, id));
}

/** One gateway process's report on a pool. */
export type TPoolHealthRow = typeof poolHealth.$inferSelect;

/** The reports on these pools made since `since` (one row per gateway process and pool). */
export async function listPoolHealth(db: TDbOrTx, poolIds: number[], since: Date): Promise<TPoolHealthRow[]> {
  if (poolIds.length === 0) return [];
  return db
    .select()
    .from(poolHealth)
    .where(and(inArray(poolHealth.poolId, poolIds), gte(poolHealth.reportedAt, since)));
}
