import { eq, sql } from 'drizzle-orm';
import { users, type TDbOrTx } from '@proxy/db';
import type { TUserRow } from '../accounts/accounts.repository';

/** What a new account row needs. */
export type TNewUser = typeof users.$inferInsert;

/** Inserts an account. */
export async function insertUser(db: TDbOrTx, row: TNewUser): Promise<TUserRow> {
  const [inserted] = await db.insert(users).values(row).returning();
  return inserted;
}

/** The account owning an invite code (exact match, codes are upper-case). */
export async function findUserByInviteCode(db: TDbOrTx, inviteCode: string): Promise<TUserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.inviteCode, inviteCode)).limit(1);
  return row;
}

/** True when an invite code is already used by some account. */
export async function isInviteCodeTaken(db: TDbOrTx, inviteCode: string): Promise<boolean> {
  return Boolean(await findUserByInviteCode(db, inviteCode));
}

/** True when at least one operator account exists. */
export async function hasAdminUser(db: TDbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  return Boolean(row);
}

/** Stamps the time of a successful sign-in. */
export async function updateLastLogin(db: TDbOrTx, userId: number, at: Date): Promise<void> {
  await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, userId));
}

/** Bumps the token version (every access token signed before answers -401); answers the new version. */
export async function bumpTokenVersion(db: TDbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ tokenVersion: users.tokenVersion });
  return row.tokenVersion;
}

/** Sets a new password hash and bumps the token version in one statement; answers the updated row. */
export async function updatePasswordHash(db: TDbOrTx, userId: number, passwordHash: string): Promise<TUserRow> {
  const [row] = await db
    .update(users)
    // A password the user chose ends a required change (the one-time password someone else saw).
    .set({ passwordHash, passwordChangeRequired: false, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
