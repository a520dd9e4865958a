import { and, eq, isNull, sql } from 'drizzle-orm';
import { proxyTokens, targetRuleLists, type TDbOrTx } from '@proxy/db';
import type { TTargetRuleMode } from '@proxy/contract';

/** A stored list (the account's when tokenId is null). */
export type TTargetRuleListRow = typeof targetRuleLists.$inferSelect;

/** Serialises changes to one user's lists until the transaction ends. */
export async function lockTargetRules(tx: TDbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`target-rules:${userId}`}))`);
}

/** True when the user owns this token (deleted ones included: they can be restored). */
export async function userOwnsToken(db: TDbOrTx, userId: number, tokenId: number): Promise<boolean> {
  const rows = await db
    .select({ id: proxyTokens.id })
    .from(proxyTokens)
    .where(and(eq(proxyTokens.id, tokenId), eq(proxyTokens.userId, userId)));
  return rows.length > 0;
}

function whereList(userId: number, tokenId: number | null) {
  return and(
    eq(targetRuleLists.userId, userId),
    tokenId === null ? isNull(targetRuleLists.tokenId) : eq(targetRuleLists.tokenId, tokenId),
  );
}

/** The account's list (tokenId null) or a token's own list of this user. */
export async function findTargetRuleList(
  db: TDbOrTx,
  userId: number,
  tokenId: number | null,
): Promise<TTargetRuleListRow | undefined> {
  const [row] = await db.select().from(targetRuleLists).where(whereList(userId, tokenId));
  return row;
}

/** Replaces the list (call under lockTargetRules). */
export async function replaceTargetRuleList(
  tx: TDbOrTx,
  list: { userId: number; tokenId: number | null; mode: TTargetRuleMode; rules: string[]; updatedAt: Date },
): Promise<TTargetRuleListRow> {
  await tx.delete(targetRuleLists).where(whereList(list.userId, list.tokenId));
  const [row] = await tx.insert(targetRuleLists).values(list).returning();
  return row;
}

/** Removes the list; answers whether there was one. */
export async function deleteTargetRuleList(tx: TDbOrTx, userId: number, tokenId: number | null): Promise<boolean> {
  const deleted = await tx
    .delete(targetRuleLists)
    .where(whereList(userId, tokenId))
    .returning({ id: targetRuleLists.id });
  return deleted.length > 0;
}
