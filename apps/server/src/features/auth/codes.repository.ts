import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { emailCodes, type TDbOrTx } from '@proxy/db';
import type { TCodePurpose } from '@proxy/contract';

/** A verification code row (the code itself is only stored hashed). */
export type TEmailCodeRow = typeof emailCodes.$inferSelect;

/** Stores a new code. */
export async function insertCode(
  db: TDbOrTx,
  row: { email: string; purpose: TCodePurpose; codeHash: string; expiresAt: Date; createdAt: Date },
): Promise<TEmailCodeRow> {
  const [inserted] = await db.insert(emailCodes).values(row).returning();
  return inserted;
}

/** Removes a code (its e-mail could not be sent, so the address may ask again at once). */
export async function deleteCode(db: TDbOrTx, id: number): Promise<void> {
  await db.delete(emailCodes).where(eq(emailCodes.id, id));
}

/** The most recent code sent to an address, whatever its purpose (the resend throttle). */
export async function findLatestCodeForEmail(db: TDbOrTx, email: string): Promise<TEmailCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(eq(emailCodes.email, email))
    .orderBy(desc(emailCodes.createdAt), desc(emailCodes.id))
    .limit(1);
  return row;
}

/** The most recent code for an address and purpose; a newer code supersedes older ones. */
export async function findLatestCode(
  db: TDbOrTx,
  email: string,
  purpose: TCodePurpose,
): Promise<TEmailCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
    .orderBy(desc(emailCodes.createdAt), desc(emailCodes.id))
    .limit(1);
  return row;
}

/** Counts one wrong try (atomically, so parallel guesses all count). */
export async function incrementCodeAttempts(db: TDbOrTx, id: number): Promise<void> {
  await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(eq(emailCodes.id, id));
}

/**
 * Uses a code once: succeeds only while it is unused, unexpired and under the
 * attempt limit, so two concurrent uses cannot both win.
 */
export async function consumeCodeOnce(db: TDbOrTx, id: number, now: Date, maxAttempts: number): Promise<boolean> {
  const rows = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(emailCodes.id, id),
        isNull(emailCodes.consumedAt),
        gt(emailCodes.expiresAt, now),
        lt(emailCodes.attempts, maxAttempts),
      ),
    )
    .returning({ id: emailCodes.id });
  return rows.length > 0;
}

/**
 * Serialises code sends to one address until the transaction ends, so two
 * parallel requests cannot both pass the resend throttle.
 */
export async function lockCodeAddress(tx: TDbOrTx, email: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`email-code:${email}`}))`);
}
