import { and, getTableColumns, asc, count, desc, eq, gte, lt, lte, max, sql } from 'drizzle-orm';
import { chargeOptions, payNotifications, payOrders, rateLimits, users, type TDbOrTx, type TTx } from '@proxy/db';
import type { TPayMethod, TPaymentStatus } from '@proxy/contract';
import { countInPage, totalOfPage } from '../../lib/user-rows.repository';

/** A recharge order row. */
export type TPayOrderRow = typeof payOrders.$inferSelect;
/** A new order. */
export type TNewPayOrder = typeof payOrders.$inferInsert;
/** A recharge option row. */
export type TChargeOptionRow = typeof chargeOptions.$inferSelect;
/** Filters of the bills. */
export type TOrderFilters = { status?: TPaymentStatus; method?: TPayMethod; orderId?: string; from?: Date; to?: Date };

/** The option set in effect at `now` (the latest effective time; ties: the higher version), in display order. */
export async function findCurrentOptions(db: TDbOrTx, now: Date): Promise<TChargeOptionRow[]> {
  const [latest] = await db
    .select({ version: chargeOptions.version })
    .from(chargeOptions)
    .where(lte(chargeOptions.effectiveAt, now))
    .orderBy(desc(chargeOptions.effectiveAt), desc(chargeOptions.version))
    .limit(1);
  if (!latest) return [];
  return db
    .select()
    .from(chargeOptions)
    .where(eq(chargeOptions.version, latest.version))
    .orderBy(asc(chargeOptions.sort), asc(chargeOptions.amountFen));
}

/** True when any option set was ever written. */
export async function hasOptionSets(db: TDbOrTx): Promise<boolean> {
  const [row] = await db.select({ version: max(chargeOptions.version) }).from(chargeOptions);
  return row?.version != null;
}

/** Writes an option set as a new version (the seed writes version 1 once, in effect since always). */
export async function insertOptionSet(
  db: TDbOrTx,
  version: number,
  options: { amountFen: number; giftFen: number }[],
  meta: { effectiveAt: Date; createdBy: number | null },
): Promise<void> {
  await db
    .insert(chargeOptions)
    .values(
      options.map((o, i) => ({
        version,
        amountFen: o.amountFen,
        giftFen: o.giftFen,
        sort: i,
        effectiveAt: meta.effectiveAt,
        createdBy: meta.createdBy,
      })),
    )
    .onConflictDoNothing();
}

export async function insertOrder(db: TDbOrTx, order: TNewPayOrder): Promise<TPayOrderRow> {
  const [row] = await db.insert(payOrders).values(order).returning();
  return row;
}

export async function deleteOrder(db: TDbOrTx, id: string): Promise<void> {
  await db.delete(payOrders).where(eq(payOrders.id, id));
}

/** One of the user's orders. */
export async function findUserOrder(db: TDbOrTx, userId: number, id: string): Promise<TPayOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(payOrders)
    .where(and(eq(payOrders.id, id), eq(payOrders.userId, userId)));
  return row;
}

/** Any order by id (the sandbox's pay page, which like a provider's page is reached by its link). */
export async function findOrder(db: TDbOrTx, id: string): Promise<TPayOrderRow | undefined> {
  const [row] = await db.select().from(payOrders).where(eq(payOrders.id, id));
  return row;
}

/** Any order, locked for the rest of the transaction (settlement). */
export async function lockOrder(tx: TTx, id: string): Promise<TPayOrderRow | undefined> {
  const [row] = await tx.select().from(payOrders).where(eq(payOrders.id, id)).for('update');
  return row;
}

/** The order of `method` a provider transaction paid, if any (pay_orders_provider_tx_key: at most one). */
export async function findOrderPaidBy(
  db: TDbOrTx,
  method: TPayMethod,
  providerTxId: string,
): Promise<TPayOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(payOrders)
    .where(and(eq(payOrders.method, method), eq(payOrders.providerTxId, providerTxId)));
  return row;
}

export async function updateOrder(tx: TDbOrTx, id: string, patch: Partial<TNewPayOrder>): Promise<TPayOrderRow> {
  const [row] = await tx.update(payOrders).set(patch).where(eq(payOrders.id, id)).returning();
  return row;
}

/** Moves a pending order to `status`; undefined when it is not pending (someone else moved it first). */
export async function endPendingOrder(
  db: TDbOrTx,
  id: string,
  status: Exclude<TPaymentStatus, 'pending' | 'success'>,
  userId?: number,
): Promise<TPayOrderRow | undefined> {
  const [row] = await db
    .update(payOrders)
    .set({ status })
    .where(
      and(
        eq(payOrders.id, id),
        eq(payOrders.status, 'pending'),
        userId === undefined ? undefined : eq(payOrders.userId, userId),
      ),
    )
    .returning();
  return row;
}

function orderWhere(userId: number | undefined, filters: TOrderFilters) {
  return and(
    userId === undefined ? undefined : eq(payOrders.userId, userId),
    filters.status ? eq(payOrders.status, filters.status) : undefined,
    filters.method ? eq(payOrders.method, filters.method) : undefined,
    filters.orderId ? eq(payOrders.id, filters.orderId) : undefined,
    filters.from ? gte(payOrders.createdAt, filters.from) : undefined,
    filters.to ? lt(payOrders.createdAt, filters.to) : undefined,
  );
}

/** A page of the user's orders, newest first. */
export async function listUserOrders(
  db: TDbOrTx,
  userId: number,
  filters: TOrderFilters,
  limit: number,
  offset: number,
): Promise<{ records: TPayOrderRow[]; total: number }> {
  const where = orderWhere(userId, filters);
  const records = await db
    .select({ ...getTableColumns(payOrders), pageTotal: countInPage(payOrders, where) })
    .from(payOrders)
    .where(where)
    .orderBy(desc(payOrders.createdAt), desc(payOrders.id))
    .limit(limit)
    .offset(offset);
  const total = await totalOfPage({ limit, offset }, records, async () =>
    Number((await db.select({ total: count() }).from(payOrders).where(where))[0]?.total ?? 0),
  );
  return { records, total };
}

/** A page of every customer's orders (or one customer's), newest first, with the customer's e-mail. */
export async function listOrdersWithCustomer(
  db: TDbOrTx,
  userId: number | undefined,
  filters: TOrderFilters,
  limit: number,
  offset: number,
): Promise<{ records: (TPayOrderRow & { userEmail: string })[]; total: number }> {
  const where = orderWhere(userId, filters);
  const rows = await db
    .select({ order: payOrders, userEmail: users.email })
    .from(payOrders)
    .innerJoin(users, eq(users.id, payOrders.userId))
    .where(where)
    .orderBy(desc(payOrders.createdAt), desc(payOrders.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ total: count() }).from(payOrders).where(where);
  return { records: rows.map((r) => ({ ...r.order, userEmail: r.userEmail })), total: Number(counted?.total ?? 0) };
}

/** Pending orders whose time ran out before `before`, oldest first. */
export async function listStalePending(db: TDbOrTx, before: Date, limit: number): Promise<TPayOrderRow[]> {
  return db
    .select()
    .from(payOrders)
    .where(and(eq(payOrders.status, 'pending'), lt(payOrders.expiresAt, before)))
    .orderBy(asc(payOrders.expiresAt))
    .limit(limit);
}

/** total_balance: the sum of real recharges (amounts without gift). */
export async function addTotalRecharge(tx: TDbOrTx, userId: number, amountFen: number): Promise<void> {
  await tx
    .update(users)
    .set({ totalRechargeFen: sql`${users.totalRechargeFen} + ${amountFen}` })
    .where(eq(users.id, userId));
}

/** The e-mail and name of an order's customer (the success mail). */
export async function findOrderCustomer(
  db: TDbOrTx,
  userId: number,
): Promise<{ email: string; username: string } | undefined> {
  const [row] = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Logs a notification and what came of it. */
export async function logNotification(db: TDbOrTx, row: typeof payNotifications.$inferInsert): Promise<void> {
  await db.insert(payNotifications).values(row);
}

/**
 * Counts one attempt on `key` in a fixed window of `windowMs` from its first
 * attempt, in the shared rate_limits table (the sign-in limits' layout, so
 * every API instance counts together and the limiter's sweeper clears it).
 * Answers the attempts in the window, this one included, and when it ends.
 */
export async function countAttempt(
  db: TDbOrTx,
  key: string,
  windowMs: number,
  now: Date,
): Promise<{ points: number; expire: number }> {
  const nowMs = now.getTime();
  const [row] = await db
    .insert(rateLimits)
    .values({ key, points: 1, expire: nowMs + windowMs })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        points: sql`CASE WHEN ${rateLimits.expire} IS NULL OR ${rateLimits.expire} <= ${nowMs} THEN 1 ELSE ${rateLimits.points} + 1 END`,
        expire: sql`CASE WHEN ${rateLimits.expire} IS NULL OR ${rateLimits.expire} <= ${nowMs} THEN excluded.expire ELSE ${rateLimits.expire} END`,
      },
    })
    .returning({ points: rateLimits.points, expire: rateLimits.expire });
  return { points: row.points, expire: row.expire ?? nowMs + windowMs };
}

/** Queues the referrals of one order to the operator one at a time (a payment found is referred once). */
export async function lockOrderReferral(tx: TTx, orderId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`pay-referral:${orderId}`}))`);
}
