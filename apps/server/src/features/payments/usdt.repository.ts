import { and, desc, eq, gte, inArray, lte, ne, sql, count } from 'drizzle-orm';
import { payOrders, usdtAmountHolds, usdtTransfers, usdtWatchCursors, type TDbOrTx, type TTx } from '@proxy/db';
import type { TPayMethod, TUsdtNetwork } from '@proxy/contract';
import type { TPayOrderRow } from './payments.repository';

/** A recorded USDT transfer. */
export type TUsdtTransferRow = typeof usdtTransfers.$inferSelect;
/** A transfer to record. */
export type TNewUsdtTransfer = typeof usdtTransfers.$inferInsert;

/** Where the network's watcher goes on; null on a fresh database. */
export async function findCursor(db: TDbOrTx, network: TUsdtNetwork): Promise<number | null> {
  const [row] = await db
    .select({ position: usdtWatchCursors.position })
    .from(usdtWatchCursors)
    .where(eq(usdtWatchCursors.network, network));
  return row?.position ?? null;
}

/** Moves the cursor forward to `position` (never back: two watchers may report in any order). */
export async function advanceCursor(db: TDbOrTx, network: TUsdtNetwork, position: number, now: Date): Promise<void> {
  await db
    .insert(usdtWatchCursors)
    .values({ network, position, updatedAt: now })
    .onConflictDoUpdate({
      target: usdtWatchCursors.network,
      set: { position: sql`GREATEST(${usdtWatchCursors.position}, excluded.position)`, updatedAt: now },
    });
}

/** Which of `amounts` some order holds at `now`. */
export async function findHeldAmounts(
  db: TDbOrTx,
  network: TUsdtNetwork,
  amounts: number[],
  now: Date,
): Promise<number[]> {
  if (amounts.length === 0) return [];
  const rows = await db
    .select({ amountUnits: usdtAmountHolds.amountUnits })
    .from(usdtAmountHolds)
    .where(
      and(
        eq(usdtAmountHolds.network, network),
        inArray(usdtAmountHolds.amountUnits, amounts),
        gte(usdtAmountHolds.heldUntil, now),
      ),
    );
  return rows.map((r) => r.amountUnits);
}

/**
 * Holds `amountUnits` for the order until `until`, unless another order holds
 * it. A concurrent holder makes this wait for its commit; only a successful
 * hold keeps a row lock, so concurrent orders cannot deadlock.
 */
export async function holdAmount(
  tx: TTx,
  network: TUsdtNetwork,
  amountUnits: number,
  orderId: string,
  until: Date,
  now: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(usdtAmountHolds)
    .values({ network, amountUnits, orderId, heldUntil: until })
    .onConflictDoNothing()
    .returning();
  if (inserted.length > 0) return true;
  const taken = await tx
    .update(usdtAmountHolds)
    .set({ orderId, heldUntil: until })
    .where(
      and(
        eq(usdtAmountHolds.network, network),
        eq(usdtAmountHolds.amountUnits, amountUnits),
        sql`${usdtAmountHolds.heldUntil} < ${now}`,
      ),
    )
    .returning();
  return taken.length > 0;
}

/** Queues the account's new USDT orders of the network one at a time (their count is checked under it). */
export async function lockAccountUsdtOrders(tx: TTx, userId: number, network: TUsdtNetwork): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`usdt-orders:${network}:${userId}`}))`);
}

/** The account's unpaid orders of `method` whose USDT amount is still held at `now` (pending, or ended within the late window). */
export async function countUnpaidHolding(tx: TDbOrTx, userId: number, method: TPayMethod, now: Date): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(payOrders)
    .innerJoin(usdtAmountHolds, eq(usdtAmountHolds.orderId, payOrders.id))
    .where(
      and(
        eq(payOrders.userId, userId),
        eq(payOrders.method, method),
        ne(payOrders.status, 'success'),
        gte(usdtAmountHolds.heldUntil, now),
      ),
    );
  return Number(row?.total ?? 0);
}

/** Frees the amount of an order that is gone (its payment could not be started). */
export async function releaseAmount(db: TDbOrTx, orderId: string): Promise<void> {
  await db
    .update(usdtAmountHolds)
    .set({ heldUntil: new Date(0) })
    .where(eq(usdtAmountHolds.orderId, orderId));
}

/** Records a transfer once; undefined when (network, transaction, log) is recorded already (by this watcher earlier, or another). */
export async function insertTransfer(tx: TDbOrTx, transfer: TNewUsdtTransfer): Promise<TUsdtTransferRow | undefined> {
  const [row] = await tx.insert(usdtTransfers).values(transfer).onConflictDoNothing().returning();
  return row;
}

export async function updateTransfer(tx: TDbOrTx, id: number, patch: Partial<TNewUsdtTransfer>): Promise<void> {
  await tx.update(usdtTransfers).set(patch).where(eq(usdtTransfers.id, id));
}

/** True when some transfer of the transaction is recorded. */
export async function isTransactionRecorded(db: TDbOrTx, network: TUsdtNetwork, txHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: usdtTransfers.id })
    .from(usdtTransfers)
    .where(and(eq(usdtTransfers.network, network), eq(usdtTransfers.txHash, txHash)))
    .limit(1);
  return row !== undefined;
}

// Orders of `method` that asked for exactly `amountUnits` and whose time window holds `blockTime`.
function amountInWindow(method: TPayMethod, amountUnits: number, blockTime: Date, lateMs: number, skewMs: number) {
  return and(
    eq(payOrders.method, method),
    eq(payOrders.cryptoAmountUnits, amountUnits),
    lte(payOrders.createdAt, new Date(blockTime.getTime() + skewMs)),
    gte(payOrders.expiresAt, new Date(blockTime.getTime() - lateMs)),
  );
}

/**
 * The unpaid order of `method` asking for exactly `amountUnits` whose time
 * window holds `blockTime` (made before it, give or take `skewMs`; its time
 * plus `lateMs` not yet over), locked; a pending one first.
 */
export async function lockOrderForTransfer(
  tx: TTx,
  method: TPayMethod,
  amountUnits: number,
  blockTime: Date,
  lateMs: number,
  skewMs: number,
): Promise<TPayOrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(payOrders)
    .where(and(amountInWindow(method, amountUnits, blockTime, lateMs, skewMs), ne(payOrders.status, 'success')))
    .orderBy(sql`${payOrders.status} = 'pending' DESC`, desc(payOrders.createdAt))
    .limit(1)
    .for('update');
  return row;
}

/** A paid order of `method` that asked for `amountUnits` in the same window (a second transfer of its amount). */
export async function findPaidOrderForAmount(
  db: TDbOrTx,
  method: TPayMethod,
  amountUnits: number,
  blockTime: Date,
  lateMs: number,
  skewMs: number,
): Promise<TPayOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(payOrders)
    .where(and(amountInWindow(method, amountUnits, blockTime, lateMs, skewMs), eq(payOrders.status, 'success')))
    .orderBy(desc(payOrders.createdAt))
    .limit(1);
  return row;
}

/** A page of the transfers that matched no order, newest first. */
export async function listUnmatchedTransfers(
  db: TDbOrTx,
  network: TUsdtNetwork | undefined,
  limit: number,
  offset: number,
): Promise<{ records: TUsdtTransferRow[]; total: number }> {
  const where = and(eq(usdtTransfers.status, 'unmatched'), network ? eq(usdtTransfers.network, network) : undefined);
  const records = await db
    .select()
    .from(usdtTransfers)
    .where(where)
    .orderBy(desc(usdtTransfers.createdAt), desc(usdtTransfers.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ total: count() }).from(usdtTransfers).where(where);
  return { records, total: Number(counted?.total ?? 0) };
}

/** Locks one transfer row (an operator's assignment). */
export async function lockTransfer(tx: TTx, id: number): Promise<TUsdtTransferRow | undefined> {
  const [row] = await tx.select().from(usdtTransfers).where(eq(usdtTransfers.id, id)).for('update');
  return row;
}
