import { eq } from 'drizzle-orm';
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
