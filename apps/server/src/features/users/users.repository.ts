import { eq, sql } from 'drizzle-orm';
import { users, type TDbOrTx } from '@proxy/db';
import type { TUserRow } from '../accounts/accounts.repository';

/** Sets the username; answers the updated row. */
export async function updateUsername(db: TDbOrTx, userId: number, username: string): Promise<TUserRow> {
  const [row] = await db.update(users).set({ username }).where(eq(users.id, userId)).returning();
  return row;
}

/** Sets the e-mail; answers the updated row. */
export async function updateEmail(db: TDbOrTx, userId: number, email: string): Promise<TUserRow> {
  const [row] = await db.update(users).set({ email: email.toLowerCase() }).where(eq(users.id, userId)).returning();
  return row;
}

/** Sets the status and bumps the token version, so a disabled account's sessions end at once. */
export async function updateUserStatus(
  db: TDbOrTx,
  userId: number,
  status: TUserRow['status'],
): Promise<TUserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ status, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** Grants or revokes the operator role. */
export async function updateIsAdmin(db: TDbOrTx, userId: number, isAdmin: boolean): Promise<void> {
  await db.update(users).set({ isAdmin }).where(eq(users.id, userId));
}
