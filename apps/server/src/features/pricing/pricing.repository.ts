import { priceCatalogue, type TDbOrTx } from '@proxy/db';

/** One stored price. */
export type TPriceRow = { key: string; amountFen: number };

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
