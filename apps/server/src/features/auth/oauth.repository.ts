import { and, eq, lt } from 'drizzle-orm';
import { oauthAccounts, oauthStates, type TDbOrTx } from '@proxy/db';
import type { TOAuthProvider } from '@proxy/contract';

/** A pending sign-in (state and PKCE verifier). */
export type TOAuthStateRow = typeof oauthStates.$inferSelect;
/** A GitHub or Google identity linked to an account. */
export type TOAuthAccountRow = typeof oauthAccounts.$inferSelect;

/** Stores a pending sign-in. */
export async function insertOAuthState(db: TDbOrTx, row: TOAuthStateRow): Promise<void> {
  await db.insert(oauthStates).values(row);
}

/** Deletes pending sign-ins that expired before `now` (abandoned attempts). */
export async function deleteExpiredOAuthStates(db: TDbOrTx, now: Date): Promise<void> {
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, now));
}

/**
 * Removes a pending sign-in and returns it: one statement, so two requests
 * with the same state cannot both get it (single use).
 */
export async function takeOAuthState(db: TDbOrTx, state: string): Promise<TOAuthStateRow | undefined> {
  const [row] = await db.delete(oauthStates).where(eq(oauthStates.state, state)).returning();
  return row;
}

/** Finds the link of a provider identity. */
export async function findOAuthAccount(
  db: TDbOrTx,
  provider: TOAuthProvider,
  providerUserId: string,
): Promise<TOAuthAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, providerUserId)))
    .limit(1);
  return row;
}

/** Links a provider identity to a user; an existing link of that identity is kept as it is. */
export async function insertOAuthAccount(
  db: TDbOrTx,
  row: { provider: TOAuthProvider; providerUserId: string; userId: number; email: string },
): Promise<void> {
  await db.insert(oauthAccounts).values(row).onConflictDoNothing();
}
