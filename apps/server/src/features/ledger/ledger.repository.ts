import { and, getTableColumns, count, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { balances, ledgerEntries, users, type TDbOrTx, type TTx } from '@proxy/db';
import { countInPage, newestOfUser, ofUser, totalOfPage } from '../../lib/user-rows.repository';

/** One immutable ledger entry as stored. */
export type TLedgerEntryRow = typeof ledgerEntries.$inferSelect;

/** What a new ledger entry holds (the id is assigned by the database). */
export type TNewLedgerEntry = Omit<typeof ledgerEntries.$inferInsert, 'id'> & { createdAt: Date };

/** A balance row's money columns. */
export type TBalanceRow = { availableFen: number; frozenFen: number };

/** Locks the user's balance row for the rest of the transaction; undefined when the user has none yet. */
export async function lockBalance(tx: TTx, userId: number): Promise<TBalanceRow | undefined> {
  const [row] = await tx
    .select({ availableFen: balances.availableFen, frozenFen: balances.frozenFen })
    .from(balances)
    .where(eq(balances.userId, userId))
    .for('update');
  return row;
}

/** Reads the user's balance row without locking it; undefined when the user has none yet. */
export async function findBalance(db: TDbOrTx, userId: number): Promise<TBalanceRow | undefined> {
  const [row] = await db
    .select({ availableFen: balances.availableFen, frozenFen: balances.frozenFen })
    .from(balances)
    .where(eq(balances.userId, userId));
  return row;
}

/**
 * Creates an empty balance row unless one exists. Concurrent callers wait on
 * the primary key and then do nothing, so exactly one row ever exists.
 */
export async function insertBalanceIfMissing(db: TDbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .insert(balances)
    .values({ userId, availableFen: 0, frozenFen: 0, updatedAt: now })
    .onConflictDoNothing({ target: balances.userId });
}

/** Overwrites the balance row (the caller holds its lock and computed the new values). */
export async function updateBalance(tx: TTx, userId: number, balance: TBalanceRow, now: Date): Promise<void> {
  await tx
    .update(balances)
    .set({ availableFen: balance.availableFen, frozenFen: balance.frozenFen, updatedAt: now })
    .where(eq(balances.userId, userId));
}

/** The user's debt (fen), under the balance row lock the caller holds. */
export async function findDebt(tx: TTx, userId: number): Promise<number> {
  const [row] = await tx.select({ debtFen: balances.debtFen }).from(balances).where(eq(balances.userId, userId));
  return row?.debtFen ?? 0;
}

/** Moves the user's debt by `deltaFen` (the caller holds the balance row lock; the check keeps it non-negative). */
export async function changeDebt(tx: TTx, userId: number, deltaFen: number, now: Date): Promise<void> {
  await tx
    .update(balances)
    .set({ debtFen: sql`${balances.debtFen} + ${deltaFen}`, updatedAt: now })
    .where(eq(balances.userId, userId));
}

/** The user's entry with this idempotency key, if any. */
export async function findEntryByIdempotencyKey(
  db: TDbOrTx,
  userId: number,
  idempotencyKey: string,
): Promise<TLedgerEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, idempotencyKey)))
    .limit(1);
  return row;
}

/** Appends an entry and returns it. */
export async function insertEntry(tx: TTx, entry: TNewLedgerEntry): Promise<TLedgerEntryRow> {
  const [row] = await tx.insert(ledgerEntries).values(entry).returning();
  return row!;
}

/** One page of the user's entries, newest first, and how many there are in all. */
/** Filters of the statement. */
export type TEntryFilters = { reason?: string; from?: Date; to?: Date };

export async function listEntriesPage(
  db: TDbOrTx,
  userId: number,
  limit: number,
  offset: number,
  filters: TEntryFilters = {},
): Promise<{ records: TLedgerEntryRow[]; total: number }> {
  const where = and(
    ofUser(ledgerEntries.userId, userId),
    filters.reason ? eq(ledgerEntries.reason, filters.reason) : undefined,
    filters.from ? gte(ledgerEntries.createdAt, filters.from) : undefined,
    filters.to ? lt(ledgerEntries.createdAt, filters.to) : undefined,
  );
  const records = await db
    .select({ ...getTableColumns(ledgerEntries), pageTotal: countInPage(ledgerEntries, where) })
    .from(ledgerEntries)
    .where(where)
    .orderBy(...newestOfUser(ledgerEntries.userId, ledgerEntries.id))
    .limit(limit)
    .offset(offset);
  const total = await totalOfPage({ limit, offset }, records, async () =>
    Number((await db.select({ total: count() }).from(ledgerEntries).where(where))[0]?.total ?? 0),
  );
  return { records, total };
}

/**
 * Sums of the user's entry deltas: what the balance row must equal. Used by
 * the invariant checks (tests, audits).
 */
export async function sumEntryDeltas(db: TDbOrTx, userId: number): Promise<TBalanceRow & { entryCount: number }> {
  const [row] = await db
    .select({
      // sum(bigint) is numeric: cast back so both drivers return an integer.
      availableFen: sql<string>`coalesce(sum(${ledgerEntries.availableDelta}), 0)::bigint`,
      frozenFen: sql<string>`coalesce(sum(${ledgerEntries.frozenDelta}), 0)::bigint`,
      entryCount: count(),
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId));
  return {
    availableFen: Number(row?.availableFen ?? 0),
    frozenFen: Number(row?.frozenFen ?? 0),
    entryCount: Number(row?.entryCount ?? 0),
  };
}

/** When the user got the trial credit: null if never, undefined if there is no such user. */
export async function findTrialGrantedAt(db: TDbOrTx, userId: number): Promise<Date | null | undefined> {
  const [row] = await db.select({ trialGrantedAt: users.trialGrantedAt }).from(users).where(eq(users.id, userId));
  return row ? row.trialGrantedAt : undefined;
}

/** Stamps the trial credit on the user unless already stamped; true when this call stamped it. */
export async function stampTrialGranted(tx: TTx, userId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ trialGrantedAt: now })
    .where(and(eq(users.id, userId), isNull(users.trialGrantedAt)))
    .returning({ id: users.id });
  return rows.length === 1;
}
