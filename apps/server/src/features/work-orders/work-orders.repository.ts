import { and, getTableColumns, asc, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { users, workOrderAttachments, workOrderMessages, workOrders, type TDbOrTx } from '@proxy/db';
import { WORK_ORDER_ACTIVE_STATUSES, type TWorkOrderStatus } from '@proxy/contract';
import { countInPage, newestOfUser, ofUser, totalOfPage } from '../../lib/user-rows.repository';

/** A work order row. */
export type TWorkOrderRow = typeof workOrders.$inferSelect;
/** A work order row with its customer (the operators' view). */
export type TWorkOrderWithCustomer = TWorkOrderRow & { email: string; username: string };
/** A message row. */
export type TMessageRow = typeof workOrderMessages.$inferSelect;
/** An attachment without its bytes. */
export type TAttachmentMeta = Omit<typeof workOrderAttachments.$inferSelect, 'data'>;
/** An attachment with its bytes and the work order of its message, if sent. */
export type TAttachmentFile = typeof workOrderAttachments.$inferSelect;

const attachmentMeta = {
  id: workOrderAttachments.id,
  userId: workOrderAttachments.userId,
  messageId: workOrderAttachments.messageId,
  filename: workOrderAttachments.filename,
  contentType: workOrderAttachments.contentType,
  sizeBytes: workOrderAttachments.sizeBytes,
  createdAt: workOrderAttachments.createdAt,
};

/** Inserts a work order. */
export async function insertWorkOrder(tx: TDbOrTx, row: typeof workOrders.$inferInsert): Promise<TWorkOrderRow> {
  const [inserted] = await tx.insert(workOrders).values(row).returning();
  return inserted;
}

/** Inserts a message of a work order. */
export async function insertMessage(tx: TDbOrTx, row: typeof workOrderMessages.$inferInsert): Promise<TMessageRow> {
  const [inserted] = await tx.insert(workOrderMessages).values(row).returning();
  return inserted;
}

/** A page of one customer's work orders, newest first, optionally of one status. */
export async function listUserWorkOrders(
  db: TDbOrTx,
  userId: number,
  filters: { status?: TWorkOrderStatus },
  page: { limit: number; offset: number },
): Promise<{ rows: TWorkOrderRow[]; total: number }> {
  const where = and(
    ofUser(workOrders.userId, userId),
    filters.status ? eq(workOrders.status, filters.status) : undefined,
  );
  const rows = await db
    .select({ ...getTableColumns(workOrders), pageTotal: countInPage(workOrders, where) })
    .from(workOrders)
    .where(where)
    .orderBy(...newestOfUser(workOrders.userId, workOrders.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOfPage(page, rows, async () =>
    Number((await db.select({ total: count() }).from(workOrders).where(where))[0].total),
  );
  return { rows, total };
}

/** A page of every customer's work orders: open first, then answered, then ended; the longest waiting first within a state. */
export async function listAllWorkOrders(
  db: TDbOrTx,
  filters: { status?: TWorkOrderStatus; userId?: number },
  page: { limit: number; offset: number },
): Promise<{ rows: TWorkOrderWithCustomer[]; total: number }> {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(workOrders.status, filters.status));
  if (filters.userId !== undefined) conditions.push(eq(workOrders.userId, filters.userId));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rank = sql`case ${workOrders.status} when 'open' then 0 when 'answered' then 1 else 2 end`;
  const rows = await db
    .select({ order: workOrders, email: users.email, username: users.username })
    .from(workOrders)
    .innerJoin(users, eq(users.id, workOrders.userId))
    .where(where)
    .orderBy(asc(rank), asc(workOrders.updatedAt), asc(workOrders.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(workOrders).where(where);
  return { rows: rows.map((r) => ({ ...r.order, email: r.email, username: r.username })), total: Number(total) };
}

/** One work order, scoped to its customer when userId is given. */
export async function findWorkOrder(db: TDbOrTx, id: number, userId?: number): Promise<TWorkOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(workOrders)
    .where(and(eq(workOrders.id, id), userId === undefined ? undefined : eq(workOrders.userId, userId)));
  return row;
}

/** One work order with its customer. */
export async function findWorkOrderWithCustomer(db: TDbOrTx, id: number): Promise<TWorkOrderWithCustomer | undefined> {
  const [row] = await db
    .select({ order: workOrders, email: users.email, username: users.username })
    .from(workOrders)
    .innerJoin(users, eq(users.id, workOrders.userId))
    .where(eq(workOrders.id, id));
  return row ? { ...row.order, email: row.email, username: row.username } : undefined;
}

/**
 * Moves a work order that is still open or answered to a new state (locking
 * it against a concurrent change); undefined when it is not found (for that
 * customer) or has ended.
 */
export async function moveActiveWorkOrder(
  tx: TDbOrTx,
  id: number,
  patch: { status: TWorkOrderStatus; updatedAt: Date; endedAt?: Date },
  userId?: number,
): Promise<TWorkOrderRow | undefined> {
  const [row] = await tx
    .update(workOrders)
    .set(patch)
    .where(
      and(
        eq(workOrders.id, id),
        inArray(workOrders.status, [...WORK_ORDER_ACTIVE_STATUSES]),
        userId === undefined ? undefined : eq(workOrders.userId, userId),
      ),
    )
    .returning();
  return row;
}

/** The messages of a work order, oldest first. */
export async function listMessages(db: TDbOrTx, workOrderId: number): Promise<TMessageRow[]> {
  return db
    .select()
    .from(workOrderMessages)
    .where(eq(workOrderMessages.workOrderId, workOrderId))
    .orderBy(asc(workOrderMessages.id));
}

/** Attachments (without bytes) of the given messages. */
export async function listMessageAttachments(db: TDbOrTx, messageIds: number[]): Promise<TAttachmentMeta[]> {
  if (messageIds.length === 0) return [];
  return db
    .select(attachmentMeta)
    .from(workOrderAttachments)
    .where(inArray(workOrderAttachments.messageId, messageIds))
    .orderBy(asc(workOrderAttachments.id));
}

/** Stores an uploaded attachment, waiting for a message. */
export async function insertAttachment(
  db: TDbOrTx,
  row: typeof workOrderAttachments.$inferInsert,
): Promise<TAttachmentMeta> {
  const [inserted] = await db.insert(workOrderAttachments).values(row).returning(attachmentMeta);
  return inserted;
}

/** How many of the user's uploads wait for a message. */
export async function countPendingAttachments(db: TDbOrTx, userId: number): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(workOrderAttachments)
    .where(and(eq(workOrderAttachments.userId, userId), isNull(workOrderAttachments.messageId)));
  return Number(total);
}

/** Gives the user's waiting uploads to a message; answers how many it took. */
export async function attachToMessage(tx: TDbOrTx, userId: number, ids: number[], messageId: number): Promise<number> {
  if (ids.length === 0) return 0;
  const taken = await tx
    .update(workOrderAttachments)
    .set({ messageId })
    .where(
      and(
        inArray(workOrderAttachments.id, ids),
        eq(workOrderAttachments.userId, userId),
        isNull(workOrderAttachments.messageId),
      ),
    )
    .returning({ id: workOrderAttachments.id });
  return taken.length;
}

/** One attachment with its bytes. */
export async function findAttachment(db: TDbOrTx, id: number): Promise<TAttachmentFile | undefined> {
  const [row] = await db.select().from(workOrderAttachments).where(eq(workOrderAttachments.id, id));
  return row;
}
