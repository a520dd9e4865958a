import { and, count, desc, eq, lte, sql, sum } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TRebateStatus } from '@proxy/contract';
import { payOrders, rebateRuleVersions, rebates, users, type TDbOrTx, type TTx } from '@proxy/db';
import { countInPage, newestOfUser, ofUser, totalOfPage } from '../../lib/user-rows.repository';

/** A version of the rebate rules. */
export type TRuleRow = typeof rebateRuleVersions.$inferSelect;
/** A rebate row. */
export type TRebateRow = typeof rebates.$inferSelect;
/** A new rebate. */
export type TNewRebate = typeof rebates.$inferInsert;
/** What the invite feature reads of an account. */
export type TAccountBrief = {
  id: number;
  username: string;
  email: string;
  status: string;
  invitedBy: number | null;
  inviteCode: string;
};

const accountBrief = {
  id: users.id,
  username: users.username,
  email: users.email,
  status: users.status,
  invitedBy: users.invitedBy,
  inviteCode: users.inviteCode,
};

/** The rules in force: the highest version. */
export async function findCurrentRules(db: TDbOrTx): Promise<TRuleRow | undefined> {
  const [row] = await db.select().from(rebateRuleVersions).orderBy(desc(rebateRuleVersions.version)).limit(1);
  return row;
}

/** Writes version 1 unless a version exists (every instance may try; one row is written). */
export async function insertFirstRules(db: TDbOrTx, rules: Omit<TRuleRow, 'version'>): Promise<void> {
  await db
    .insert(rebateRuleVersions)
    .values({ ...rules, version: 1 })
    .onConflictDoNothing();
}

/** Writes the next version (a concurrent twin makes this fail on the primary key; the caller retries). */
export async function insertNextRules(db: TDbOrTx, rules: Omit<TRuleRow, 'version'>): Promise<TRuleRow> {
  const [row] = await db
    .insert(rebateRuleVersions)
    .values({
      ...rules,
      version: sql`(SELECT coalesce(max(${rebateRuleVersions.version}), 0) + 1 FROM ${rebateRuleVersions})`,
    })
    .returning();
  return row!;
}

/** A page of the versions, newest first, with the e-mail of the operator who made each. */
export async function listRuleVersions(
  db: TDbOrTx,
  limit: number,
  offset: number,
): Promise<{ records: (TRuleRow & { createdByEmail: string | null })[]; total: number }> {
  const records = await db
    .select({
      version: rebateRuleVersions.version,
      rateBp: rebateRuleVersions.rateBp,
      minChargeFen: rebateRuleVersions.minChargeFen,
      maxRebateFen: rebateRuleVersions.maxRebateFen,
      createdBy: rebateRuleVersions.createdBy,
      effectiveAt: rebateRuleVersions.effectiveAt,
      createdByEmail: users.email,
    })
    .from(rebateRuleVersions)
    .leftJoin(users, eq(users.id, rebateRuleVersions.createdBy))
    .orderBy(desc(rebateRuleVersions.version))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ total: count() }).from(rebateRuleVersions);
  return { records, total: Number(counted?.total ?? 0) };
}

/** An account by id. */
export async function findAccount(db: TDbOrTx, id: number): Promise<TAccountBrief | undefined> {
  const [row] = await db.select(accountBrief).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account owning an invite code (codes are upper-case). */
export async function findAccountByInviteCode(db: TDbOrTx, code: string): Promise<TAccountBrief | undefined> {
  const [row] = await db.select(accountBrief).from(users).where(eq(users.inviteCode, code)).limit(1);
  return row;
}

/** Creates the rebate of an order unless it has one; undefined when it existed. */
export async function insertRebateOnce(tx: TDbOrTx, rebate: TNewRebate): Promise<TRebateRow | undefined> {
  const [row] = await tx.insert(rebates).values(rebate).onConflictDoNothing({ target: rebates.orderId }).returning();
  return row;
}

/** The oldest pending rebate that is due, locked; rows another runner holds are skipped. */
export async function lockNextDueRebate(tx: TTx, now: Date): Promise<TRebateRow | undefined> {
  const [row] = await tx
    .select()
    .from(rebates)
    .where(and(eq(rebates.status, 'pending'), lte(rebates.dueAt, now)))
    .orderBy(rebates.id)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** The rebate of an order, locked for the rest of the transaction. */
export async function lockRebateOfOrder(tx: TTx, orderId: string): Promise<TRebateRow | undefined> {
  const [row] = await tx.select().from(rebates).where(eq(rebates.orderId, orderId)).for('update');
  return row;
}

export async function updateRebate(tx: TDbOrTx, id: number, patch: Partial<TNewRebate>): Promise<TRebateRow> {
  const [row] = await tx.update(rebates).set(patch).where(eq(rebates.id, id)).returning();
  return row!;
}

/** The state of a recharge order, or undefined when there is no such order. */
export async function findOrderStatus(db: TDbOrTx, orderId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: payOrders.status }).from(payOrders).where(eq(payOrders.id, orderId));
  return row?.status;
}

/** How many accounts the user invited. */
export async function countInvitees(db: TDbOrTx, inviterId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(users).where(eq(users.invitedBy, inviterId));
  return Number(row?.total ?? 0);
}

/** Sums of the user's rebates by state, in fen. */
export async function sumRebatesByStatus(
  db: TDbOrTx,
  inviterId: number,
): Promise<Partial<Record<TRebateStatus, number>>> {
  const rows = await db
    .select({ status: rebates.status, total: sum(rebates.rebateFen) })
    .from(rebates)
    .where(eq(rebates.inviterId, inviterId))
    .groupBy(rebates.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.total ?? 0)]));
}

/** A page of the accounts the user invited, newest first, with the count and sum of their paid rebates. */
export async function listInvitees(
  db: TDbOrTx,
  inviterId: number,
  limit: number,
  offset: number,
): Promise<{ records: { email: string; createdAt: Date; rebateCount: number; rebateFen: number }[]; total: number }> {
  const paid = db
    .select({
      inviteeId: rebates.inviteeId,
      rebateCount: count().as('rebate_count'),
      rebateFen: sum(rebates.rebateFen).as('rebate_fen'),
    })
    .from(rebates)
    .where(and(eq(rebates.inviterId, inviterId), eq(rebates.status, 'success')))
    .groupBy(rebates.inviteeId)
    .as('paid');
  const rows = await db
    .select({
      email: users.email,
      createdAt: users.createdAt,
      rebateCount: paid.rebateCount,
      rebateFen: paid.rebateFen,
    })
    .from(users)
    .leftJoin(paid, eq(paid.inviteeId, users.id))
    .where(ofUser(users.invitedBy, inviterId))
    .orderBy(...newestOfUser(users.invitedBy, users.id))
    .limit(limit)
    .offset(offset);
  return {
    records: rows.map((r) => ({
      email: r.email,
      createdAt: r.createdAt,
      rebateCount: Number(r.rebateCount ?? 0),
      rebateFen: Number(r.rebateFen ?? 0),
    })),
    total: await countInvitees(db, inviterId),
  };
}

/** A rebate with the e-mails of both accounts. */
export type TRebateListRow = TRebateRow & { inviteeEmail: string; inviterEmail: string };

/** A page of rebates, newest first: one inviter's (or every one, for operators), optionally in one state. */
export async function listRebates(
  db: TDbOrTx,
  filters: { inviterId?: number; status?: TRebateStatus },
  limit: number,
  offset: number,
): Promise<{ records: TRebateListRow[]; total: number }> {
  const invitee = alias(users, 'invitee');
  const inviter = alias(users, 'inviter');
  const where = and(
    filters.inviterId !== undefined ? ofUser(rebates.inviterId, filters.inviterId) : undefined,
    filters.status ? eq(rebates.status, filters.status) : undefined,
  );
  const records = await db
    .select({
      rebate: rebates,
      inviteeEmail: invitee.email,
      inviterEmail: inviter.email,
      pageTotal: countInPage(rebates, where),
    })
    .from(rebates)
    .innerJoin(invitee, eq(invitee.id, rebates.inviteeId))
    .innerJoin(inviter, eq(inviter.id, rebates.inviterId))
    .where(where)
    .orderBy(...(filters.inviterId !== undefined ? newestOfUser(rebates.inviterId, rebates.id) : [desc(rebates.id)]))
    .limit(limit)
    .offset(offset);
  const total = await totalOfPage({ limit, offset }, records, async () =>
    Number((await db.select({ total: count() }).from(rebates).where(where))[0]?.total ?? 0),
  );
  return {
    records: records.map((r) => ({ ...r.rebate, inviteeEmail: r.inviteeEmail, inviterEmail: r.inviterEmail })),
    total,
  };
}
