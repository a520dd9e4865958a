import { and, getTableColumns, asc, count, eq, gt, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { SUPPLY_OPEN_STATUSES, type TSupplyStatus } from '@proxy/contract';
import { supplyContactEmails, supplyRequests, users, workOrders, type TDbOrTx } from '@proxy/db';
import { countInPage, newestOfUser, ofUser, totalOfPage } from '../../lib/user-rows.repository';

/** A supply request row. */
export type TSupplyRow = typeof supplyRequests.$inferSelect;
/** What a new supply request needs. */
export type TNewSupply = typeof supplyRequests.$inferInsert;
/** A row with its customer's e-mail (the operators' queue). */
export type TSupplyRowWithUser = TSupplyRow & { userEmail: string };

/** Adds a request. */
export async function insertSupplyRequest(db: TDbOrTx, row: TNewSupply): Promise<TSupplyRow> {
  const [inserted] = await db.insert(supplyRequests).values(row).returning();
  return inserted;
}

/** The user's request with this client Idempotency-Key. */
export async function findSupplyByKey(db: TDbOrTx, userId: number, key: string): Promise<TSupplyRow | undefined> {
  const [row] = await db
    .select()
    .from(supplyRequests)
    .where(and(eq(supplyRequests.userId, userId), eq(supplyRequests.idempotencyKey, key)));
  return row;
}

/** One request of the user (another user's is undefined). */
export async function findUserSupply(db: TDbOrTx, userId: number, id: number): Promise<TSupplyRow | undefined> {
  const [row] = await db
    .select()
    .from(supplyRequests)
    .where(and(eq(supplyRequests.id, id), eq(supplyRequests.userId, userId)));
  return row;
}

/** Locks one request (FOR UPDATE), of the user when `userId` is given: transitions serialize on it. */
export async function lockSupply(tx: TDbOrTx, id: number, userId?: number): Promise<TSupplyRow | undefined> {
  const where =
    userId === undefined
      ? eq(supplyRequests.id, id)
      : and(eq(supplyRequests.id, id), eq(supplyRequests.userId, userId));
  const [row] = await tx.select().from(supplyRequests).where(where).for('update');
  return row;
}

/** Locks the next open request past its deadline (SKIP LOCKED: instances share the work), if any. */
export async function lockNextOverdueSupply(tx: TDbOrTx, now: Date): Promise<TSupplyRow | undefined> {
  const [row] = await tx
    .select()
    .from(supplyRequests)
    .where(and(inArray(supplyRequests.status, [...SUPPLY_OPEN_STATUSES]), lte(supplyRequests.deadlineAt, now)))
    .orderBy(asc(supplyRequests.deadlineAt), asc(supplyRequests.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** Changes a request. */
export async function updateSupply(db: TDbOrTx, id: number, patch: Partial<TNewSupply>): Promise<TSupplyRow> {
  const [row] = await db.update(supplyRequests).set(patch).where(eq(supplyRequests.id, id)).returning();
  return row;
}

/** A page of the user's requests, newest first. */
export async function listUserSupplyPage(
  db: TDbOrTx,
  userId: number,
  filters: { status?: TSupplyStatus },
  page: { limit: number; offset: number },
): Promise<{ rows: TSupplyRow[]; total: number }> {
  const parts: SQL[] = [ofUser(supplyRequests.userId, userId)];
  if (filters.status) parts.push(eq(supplyRequests.status, filters.status));
  const where = and(...parts);
  const rows = await db
    .select({ ...getTableColumns(supplyRequests), pageTotal: countInPage(supplyRequests, where) })
    .from(supplyRequests)
    .where(where)
    .orderBy(...newestOfUser(supplyRequests.userId, supplyRequests.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOfPage(page, rows, async () =>
    Number((await db.select({ n: count() }).from(supplyRequests).where(where))[0].n),
  );
  return { rows, total };
}

// Open requests first (pending, then processing), oldest first; ended ones after, newest first.
const queueOrder = sql`case ${supplyRequests.status} when 'pending' then 0 when 'processing' then 1 else 2 end`;

/** A page of every customer's requests for operators, with the customer's e-mail. */
export async function listSupplyQueuePage(
  db: TDbOrTx,
  filters: { status?: TSupplyStatus },
  page: { limit: number; offset: number },
): Promise<{ rows: TSupplyRowWithUser[]; total: number }> {
  const where = filters.status ? eq(supplyRequests.status, filters.status) : undefined;
  const rows = await db
    .select({ row: supplyRequests, userEmail: users.email })
    .from(supplyRequests)
    .innerJoin(users, eq(users.id, supplyRequests.userId))
    .where(where)
    .orderBy(
      queueOrder,
      sql`case when ${supplyRequests.status} in ('pending', 'processing') then ${supplyRequests.id} else -${supplyRequests.id} end`,
    )
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(supplyRequests).where(where);
  return { rows: rows.map((r) => ({ ...r.row, userEmail: r.userEmail })), total: Number(n) };
}

/** The customer's e-mail of a request (operators' answers). */
export async function findUserEmail(db: TDbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? '';
}

/** The newest work order about each of these supply requests (supply request id -> work order id). */
export async function findWorkOrderIdsBySupply(db: TDbOrTx, supplyIds: number[]): Promise<Map<number, number>> {
  if (supplyIds.length === 0) return new Map();
  const rows = await db
    .select({ supplyRequestId: workOrders.supplyRequestId, id: workOrders.id })
    .from(workOrders)
    .where(inArray(workOrders.supplyRequestId, supplyIds))
    .orderBy(asc(workOrders.id));
  return new Map(rows.map((r) => [r.supplyRequestId!, r.id]));
}

/** A contact address of the account as recorded (confirmed or not), or undefined. */
export async function findSupplyContact(
  db: TDbOrTx,
  userId: number,
  email: string,
): Promise<typeof supplyContactEmails.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(supplyContactEmails)
    .where(and(eq(supplyContactEmails.userId, userId), eq(supplyContactEmails.email, email)));
  return row;
}

/**
 * Records an unconfirmed contact address with a new confirmation token, when
 * the address is new to the account or its last confirmation mail is older
 * than `resendBefore`; true when the caller should mail the confirmation.
 */
export async function claimSupplyContactMail(
  db: TDbOrTx,
  row: { userId: number; email: string; tokenHash: string; now: Date; resendBefore: Date },
): Promise<boolean> {
  const rows = await db
    .insert(supplyContactEmails)
    .values({ userId: row.userId, email: row.email, tokenHash: row.tokenHash, sentAt: row.now, createdAt: row.now })
    .onConflictDoUpdate({
      target: [supplyContactEmails.userId, supplyContactEmails.email],
      set: { tokenHash: row.tokenHash, sentAt: row.now },
      setWhere: and(isNull(supplyContactEmails.confirmedAt), lt(supplyContactEmails.sentAt, row.resendBefore)),
    })
    .returning({ email: supplyContactEmails.email });
  return rows.length > 0;
}

/** Confirms the contact address of a token mailed since `sentAfter`; answers the address, or undefined. */
export async function confirmSupplyContact(
  db: TDbOrTx,
  tokenHash: string,
  now: Date,
  sentAfter: Date,
): Promise<string | undefined> {
  const [row] = await db
    .update(supplyContactEmails)
    .set({ confirmedAt: sql`COALESCE(${supplyContactEmails.confirmedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(supplyContactEmails.tokenHash, tokenHash), gt(supplyContactEmails.sentAt, sentAfter)))
    .returning({ email: supplyContactEmails.email });
  return row?.email;
}
