import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { signInGuards, signInLinks, signInProofs, type TDbOrTx } from '@proxy/db';

/**
 * Counts one sign-in attempt of an account before its password is checked
 * (one statement, so parallel attempts on any instance each see their own
 * count); a window older than windowMs starts again at 1. Answers the count,
 * this attempt included.
 */
export async function countSignInAttempt(
  db: TDbOrTx,
  accountKey: string,
  now: Date,
  windowMs: number,
): Promise<number> {
  const windowStart = new Date(now.getTime() - windowMs);
  const isStale = sql`${signInGuards.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(signInGuards)
    .values({ accountKey, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInGuards.accountKey,
      set: {
        failures: sql`CASE WHEN ${isStale} THEN 1 ELSE ${signInGuards.failures} + 1 END`,
        alertedAt: sql`CASE WHEN ${isStale} THEN NULL ELSE ${signInGuards.alertedAt} END`,
        windowStartedAt: sql`CASE WHEN ${isStale} THEN ${now.toISOString()}::timestamptz ELSE ${signInGuards.windowStartedAt} END`,
      },
    })
    .returning({ failures: signInGuards.failures });
  return row.failures;
}

/** Takes back an attempt counted by countSignInAttempt (the password was right, or none was checked). */
export async function uncountSignInAttempt(db: TDbOrTx, accountKey: string): Promise<void> {
  await db
    .update(signInGuards)
    .set({ failures: sql`GREATEST(${signInGuards.failures} - 1, 0)` })
    .where(eq(signInGuards.accountKey, accountKey));
}

/** Marks the window's burst as alerted; true for the one caller that marked it. */
export async function claimSignInAlert(db: TDbOrTx, accountKey: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(signInGuards)
    .set({ alertedAt: now })
    .where(and(eq(signInGuards.accountKey, accountKey), isNull(signInGuards.alertedAt)))
    .returning({ accountKey: signInGuards.accountKey });
  return rows.length > 0;
}

/** Spends a proof-of-work challenge: true the first time, false when it was spent before. Drops expired ones. */
export async function spendSignInProof(db: TDbOrTx, challengeId: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.delete(signInProofs).where(lt(signInProofs.expiresAt, now));
  const rows = await db
    .insert(signInProofs)
    .values({ challengeId, expiresAt })
    .onConflictDoNothing()
    .returning({ challengeId: signInProofs.challengeId });
  return rows.length > 0;
}

/** When the account's latest sign-in link was made (the resend spacing). */
export async function findLatestSignInLinkAt(db: TDbOrTx, userId: number): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: signInLinks.createdAt })
    .from(signInLinks)
    .where(eq(signInLinks.userId, userId))
    .orderBy(desc(signInLinks.createdAt))
    .limit(1);
  return row?.createdAt;
}

/** Stores a sign-in link (its token hashed). */
export async function insertSignInLink(
  db: TDbOrTx,
  row: { userId: number; tokenHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(signInLinks).values(row);
}

/** Spends a live link by its token hash (once, whoever asks first); answers its account, or undefined. */
export async function spendSignInLink(db: TDbOrTx, tokenHash: string, now: Date): Promise<number | undefined> {
  const [row] = await db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.tokenHash, tokenHash), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
    .returning({ userId: signInLinks.userId });
  return row?.userId;
}
