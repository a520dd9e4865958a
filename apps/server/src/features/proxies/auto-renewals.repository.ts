import { and, desc, eq, isNull } from 'drizzle-orm';
import { autoRenewals, renewalNotices, type TDbOrTx } from '@proxy/db';

/** A charged auto-renewal. */
export type TAutoRenewalRow = typeof autoRenewals.$inferSelect;
/** An auto-renewal notice and its cancel link's state. */
export type TRenewalNoticeRow = typeof renewalNotices.$inferSelect;

/** Records a charged auto-renewal (inside the renewal's transaction). */
export async function insertAutoRenewal(tx: TDbOrTx, row: typeof autoRenewals.$inferInsert): Promise<TAutoRenewalRow> {
  const [inserted] = await tx.insert(autoRenewals).values(row).returning();
  return inserted;
}

/** The latest auto-renewal of the user's token. */
export async function findLatestAutoRenewal(
  db: TDbOrTx,
  userId: number,
  tokenId: number,
): Promise<TAutoRenewalRow | undefined> {
  const [row] = await db
    .select()
    .from(autoRenewals)
    .where(and(eq(autoRenewals.userId, userId), eq(autoRenewals.tokenId, tokenId)))
    .orderBy(desc(autoRenewals.id))
    .limit(1);
  return row;
}

/** Locks the latest auto-renewal of the user's token (the caller holds the token's lock). */
export async function lockLatestAutoRenewal(
  tx: TDbOrTx,
  userId: number,
  tokenId: number,
): Promise<TAutoRenewalRow | undefined> {
  const [row] = await tx
    .select()
    .from(autoRenewals)
    .where(and(eq(autoRenewals.userId, userId), eq(autoRenewals.tokenId, tokenId)))
    .orderBy(desc(autoRenewals.id))
    .limit(1)
    .for('update');
  return row;
}

/** Marks an auto-renewal undone; answers false when it already was. */
export async function markAutoRenewalUndone(tx: TDbOrTx, id: number, at: Date): Promise<boolean> {
  const rows = await tx
    .update(autoRenewals)
    .set({ undoneAt: at })
    .where(and(eq(autoRenewals.id, id), isNull(autoRenewals.undoneAt)))
    .returning({ id: autoRenewals.id });
  return rows.length === 1;
}

/** Writes the notice of a token's renewal once: undefined when this token and expiry already has one. */
export async function insertRenewalNotice(
  tx: TDbOrTx,
  row: typeof renewalNotices.$inferInsert,
): Promise<TRenewalNoticeRow | undefined> {
  const [inserted] = await tx.insert(renewalNotices).values(row).onConflictDoNothing().returning();
  return inserted;
}

/** The notice of a token's renewal at this expiry. */
export async function findRenewalNoticeFor(
  db: TDbOrTx,
  tokenId: number,
  expiresAt: Date,
): Promise<TRenewalNoticeRow | undefined> {
  const [row] = await db
    .select()
    .from(renewalNotices)
    .where(and(eq(renewalNotices.tokenId, tokenId), eq(renewalNotices.expiresAt, expiresAt)));
  return row;
}

/** A notice by id. */
export async function findRenewalNotice(db: TDbOrTx, id: number): Promise<TRenewalNoticeRow | undefined> {
  const [row] = await db.select().from(renewalNotices).where(eq(renewalNotices.id, id));
  return row;
}

/** Locks a notice by id. */
export async function lockRenewalNotice(tx: TDbOrTx, id: number): Promise<TRenewalNoticeRow | undefined> {
  const [row] = await tx.select().from(renewalNotices).where(eq(renewalNotices.id, id)).for('update');
  return row;
}

/** Records that the notice's cancel link was used; answers false when it already was. */
export async function markRenewalNoticeUsed(tx: TDbOrTx, id: number, at: Date): Promise<boolean> {
  const rows = await tx
    .update(renewalNotices)
    .set({ usedAt: at })
    .where(and(eq(renewalNotices.id, id), isNull(renewalNotices.usedAt)))
    .returning({ id: renewalNotices.id });
  return rows.length === 1;
}
