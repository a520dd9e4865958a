import { and, asc, count, desc, eq, gt, lte, type SQL } from 'drizzle-orm';
import { priceCatalogue, priceVersions, users, type TDbOrTx } from '@proxy/db';

/** One stored price. */
export type TPriceRow = { key: string; amountFen: number };
/** A version of one price. */
export type TPriceVersionRow = typeof priceVersions.$inferSelect;
/** A version with the e-mail of the operator who made it. */
export type TPriceVersionWithAuthor = TPriceVersionRow & { createdByEmail: string | null };

/** Every stored price. */
export async function listPriceRows(db: TDbOrTx): Promise<TPriceRow[]> {
  return db.select({ key: priceCatalogue.key, amountFen: priceCatalogue.amountFen }).from(priceCatalogue);
}

/** Inserts the prices whose key is missing; existing (operator-edited) prices are kept. */
export async function insertMissingPrices(db: TDbOrTx, rows: TPriceRow[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(priceCatalogue)
    .values(rows.map((r) => ({ key: r.key, amountFen: r.amountFen, updatedAt: now })))
    .onConflictDoNothing({ target: priceCatalogue.key })
    .returning({ key: priceCatalogue.key });
  return inserted.length;
}

/** The version in effect at `now` of every key that has one (the latest effective time; ties: the higher id). One indexed query. */
export async function listVersionsInEffect(db: TDbOrTx, now: Date): Promise<TPriceVersionRow[]> {
  return db
    .selectDistinctOn([priceVersions.key])
    .from(priceVersions)
    .where(lte(priceVersions.effectiveAt, now))
    .orderBy(priceVersions.key, desc(priceVersions.effectiveAt), desc(priceVersions.id));
}

/** Versions not in effect yet, soonest first. */
export async function listScheduledVersions(db: TDbOrTx, now: Date): Promise<TPriceVersionWithAuthor[]> {
  return withAuthor(db)
    .where(gt(priceVersions.effectiveAt, now))
    .orderBy(asc(priceVersions.effectiveAt), asc(priceVersions.id));
}

function withAuthor(db: TDbOrTx) {
  return db
    .select({
      id: priceVersions.id,
      key: priceVersions.key,
      amountFen: priceVersions.amountFen,
      effectiveAt: priceVersions.effectiveAt,
      createdBy: priceVersions.createdBy,
      createdAt: priceVersions.createdAt,
      createdByEmail: users.email,
    })
    .from(priceVersions)
    .leftJoin(users, eq(users.id, priceVersions.createdBy))
    .$dynamic();
}

/** Writes new versions (ids come from the sequence, so concurrent writers never share one). */
export async function insertPriceVersions(
  db: TDbOrTx,
  rows: Omit<TPriceVersionRow, 'id' | 'createdAt'>[],
): Promise<TPriceVersionRow[]> {
  return db.insert(priceVersions).values(rows).returning();
}

/** A page of versions, newest first (by effective time, then id), optionally of one key. */
export async function listVersionPage(
  db: TDbOrTx,
  filters: { key?: string },
  limit: number,
  offset: number,
): Promise<{ records: TPriceVersionWithAuthor[]; total: number }> {
  const where: SQL | undefined = and(filters.key ? eq(priceVersions.key, filters.key) : undefined);
  const records = await withAuthor(db)
    .where(where)
    .orderBy(desc(priceVersions.effectiveAt), desc(priceVersions.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ total: count() }).from(priceVersions).where(where);
  return { records, total: counted?.total ?? 0 };
}
