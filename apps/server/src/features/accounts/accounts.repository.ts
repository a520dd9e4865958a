import { and, eq, ne, sql } from 'drizzle-orm';
import { users, type TDbOrTx } from '@proxy/db';

/**
 * Who is this: the account row and its lookups (by id, e-mail, username,
 * personal API key) that sign-in, profile edits, operator calls and the
 * routing layer share. Below every feature that needs an account.
 */

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

/** Turns the recording of the account's traffic by target domain on or off (the days already recorded stay). */
export async function setDomainUsageEnabled(db: TDbOrTx, userId: number, enabled: boolean): Promise<void> {
  await db.update(users).set({ domainUsageEnabled: enabled }).where(eq(users.id, userId));
}
