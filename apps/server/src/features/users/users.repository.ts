import { and, eq, ne, sql } from 'drizzle-orm';
import { users, type TDbOrTx } from '@proxy/db';

/** A user row. */
export type TUserRow = typeof users.$inferSelect;

/** Finds a user by id. */
export async function findUserById(db: TDbOrTx, id: number): Promise<TUserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Finds a user by personal API key. */
export async function findUserByApiKey(db: TDbOrTx, apiKey: string): Promise<TUserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.apiKey, apiKey)).limit(1);
  return row;
}

/** Finds a user by e-mail (stored lower-cased). */
export async function findUserByEmail(db: TDbOrTx, email: string): Promise<TUserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

/** Finds a user by username, ignoring case (usernames are unique case-insensitively). */
export async function findUserByUsername(db: TDbOrTx, username: string): Promise<TUserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

/** True when another account (not exceptUserId) uses the username, ignoring case. */
export async function isUsernameTaken(db: TDbOrTx, username: string, exceptUserId?: number): Promise<boolean> {
  const sameName = sql`lower(${users.username}) = lower(${username})`;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId === undefined ? sameName : and(sameName, ne(users.id, exceptUserId)))
    .limit(1);
  return Boolean(row);
}

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
export async function updateUserStatus(db: TDbOrTx, userId: number, status: TUserRow['status']): Promise<TUserRow | undefined> {
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
