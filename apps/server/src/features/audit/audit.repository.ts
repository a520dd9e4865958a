import { and, count, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import { auditEntries, users, type TDbOrTx } from '@proxy/db';

/** What a new audit entry needs. */
export type TNewAuditEntry = typeof auditEntries.$inferInsert;
/** An audit entry with its operator's e-mail. */
export type TAuditRow = typeof auditEntries.$inferSelect & { operatorEmail: string };

/** Appends an entry (entries are never updated or deleted). */
export async function insertAuditEntry(db: TDbOrTx, row: TNewAuditEntry): Promise<void> {
  await db.insert(auditEntries).values(row);
}

/** One page of entries, newest first, with the total under the same filters. */
export async function listAuditPage(
  db: TDbOrTx,
  filters: { operatorId?: number; operatorEmail?: string; route?: string; targetId?: string; from?: Date; to?: Date },
  page: { limit: number; offset: number },
): Promise<{ rows: TAuditRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filters.operatorId !== undefined) conditions.push(eq(auditEntries.operatorId, filters.operatorId));
  // Part of the operator's e-mail, any case; LIKE's own characters match themselves.
  if (filters.operatorEmail)
    conditions.push(ilike(users.email, `%${filters.operatorEmail.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (filters.route) conditions.push(eq(auditEntries.route, filters.route));
  if (filters.targetId) conditions.push(eq(auditEntries.targetId, filters.targetId));
  if (filters.from) conditions.push(gte(auditEntries.createdAt, filters.from));
  if (filters.to) conditions.push(lt(auditEntries.createdAt, filters.to));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await db
    .select({ entry: auditEntries, operatorEmail: users.email })
    .from(auditEntries)
    .innerJoin(users, eq(users.id, auditEntries.operatorId))
    .where(where)
    .orderBy(desc(auditEntries.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(auditEntries)
    .innerJoin(users, eq(users.id, auditEntries.operatorId))
    .where(where);
  return { rows: rows.map((r) => ({ ...r.entry, operatorEmail: r.operatorEmail })), total: Number(total) };
}

/** True when the transaction has written anything yet (PostgreSQL gives a transaction its id on its first write). */
export async function hasTransactionWritten(tx: TDbOrTx): Promise<boolean> {
  const result = (await tx.execute(sql`SELECT txid_current_if_assigned() IS NOT NULL AS written`)) as unknown as {
    rows: { written: boolean }[];
  };
  return result.rows[0]?.written === true;
}
