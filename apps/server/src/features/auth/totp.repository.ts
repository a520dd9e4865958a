import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { userRecoveryCodes, userTotp, type TDbOrTx } from '@proxy/db';

/** A user's two-factor row (enrolment started, or on when enabledAt is set). */
export type TTotpRow = typeof userTotp.$inferSelect;

/** The user's two-factor row, if enrolment ever started. */
export async function findTotp(db: TDbOrTx, userId: number): Promise<TTotpRow | undefined> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  return row;
}

/** True when the user has two-factor on. */
export async function isTotpEnabled(db: TDbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userTotp.userId })
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.enabledAt)));
  return Boolean(row);
}

/** Starts (or restarts) enrolment with a new secret; only while two-factor is off. Answers false when it is on. */
export async function upsertPendingTotp(db: TDbOrTx, userId: number, secret: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(userTotp)
    .values({ userId, secret, createdAt: at })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secret, createdAt: at, lastUsedStep: null },
      where: isNull(userTotp.enabledAt),
    })
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

/** Replaces a secret stored before encryption with its sealed form (only while the row still holds `from`). */
export async function resealTotpSecret(db: TDbOrTx, userId: number, from: string, to: string): Promise<void> {
  await db
    .update(userTotp)
    .set({ secret: to })
    .where(and(eq(userTotp.userId, userId), eq(userTotp.secret, from)));
}

/**
 * Records that the code of time step `step` was accepted, only when no code
 * of that step or a later one was accepted before (a code is used once).
 * Answers false when it was.
 */
export async function claimTotpStep(db: TDbOrTx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(userTotp)
    .set({ lastUsedStep: step })
    .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step))))
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

/**
 * The two-factor row of a sign-in challenge, locked until the transaction
 * ends, only while its last accepted step is still `step` (-1 for none), the
 * step when the challenge was issued: two finishes of one challenge wait for
 * each other here, and the second finds the step moved (or a recovery code
 * spent) by the first. Undefined when the step has moved.
 */
export async function lockTotpAtStep(tx: TDbOrTx, userId: number, step: number): Promise<TTotpRow | undefined> {
  const [row] = await tx
    .select()
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), sql`coalesce(${userTotp.lastUsedStep}, -1) = ${step}`))
    .for('update');
  return row;
}

/** Recovery codes of the user already used. */
export async function countUsedRecoveryCodes(db: TDbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNotNull(userRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** Turns two-factor on (enrolment confirmed). */
export async function markTotpEnabled(db: TDbOrTx, userId: number, at: Date): Promise<void> {
  await db.update(userTotp).set({ enabledAt: at }).where(eq(userTotp.userId, userId));
}

/** Turns two-factor off: the secret and every recovery code are removed. */
export async function deleteTotp(db: TDbOrTx, userId: number): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
}

/** Replaces the user's recovery codes with new hashes. */
export async function replaceRecoveryCodes(db: TDbOrTx, userId: number, hashes: string[], at: Date): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
}

/** Spends an unused recovery code of the user; false when none matches (unknown or already used). */
export async function useRecoveryCode(db: TDbOrTx, userId: number, codeHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, codeHash),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return rows.length > 0;
}

/** Unused recovery codes of the user. */
export async function countUnusedRecoveryCodes(db: TDbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
