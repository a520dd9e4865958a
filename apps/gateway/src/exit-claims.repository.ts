import { sql } from 'drizzle-orm';
import type { TDb } from '@proxy/db';
import { rawRows } from './raw-rows.repository';

/**
 * Claims an exit for a sticky session of an account until `expiresAt` (session_exit_claims): granted when no live
 * claim of another session holds it (a lapsed one is taken over). Answers whether it was granted.
 */
export async function claimExit(
  db: TDb,
  claim: { userId: number; exitKey: string; sessionKey: string; expiresAt: number; now: number },
): Promise<boolean> {
  const rows = await rawRows(
    db,
    `INSERT INTO session_exit_claims (user_id, exit_key, session_key, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, exit_key) DO UPDATE SET session_key = excluded.session_key, expires_at = excluded.expires_at
     WHERE session_exit_claims.expires_at <= $5 OR session_exit_claims.session_key = excluded.session_key
     RETURNING session_key`,
    [
      claim.userId,
      claim.exitKey,
      claim.sessionKey,
      new Date(claim.expiresAt).toISOString(),
      new Date(claim.now).toISOString(),
    ],
  );
  return rows.length > 0;
}

/** Gives back a session's claim of an exit (the session moved to another). */
export async function releaseExit(db: TDb, userId: number, exitKey: string, sessionKey: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM session_exit_claims WHERE user_id = ${userId} AND exit_key = ${exitKey} AND session_key = ${sessionKey}`,
  );
}
