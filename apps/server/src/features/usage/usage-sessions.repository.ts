import { and, asc, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import { stickySessions, type TDbOrTx } from '@proxy/db';
import { STICKY_SESSION_ENDS, type TStickySessionEnd } from '@proxy/contract';

/** The session hold report's rows (sticky_sessions) and the retention of the session tables. */

/** A sticky session row. */
export type TStickySessionRow = typeof stickySessions.$inferSelect;

/** Which sessions: one proxy of one account, first seen at or after `since`. */
export type TSessionHoldsFilter = { userId: number; tokenId: number; since: Date; windowsSince: Date };

function whereOf(f: TSessionHoldsFilter): SQL | undefined {
  return and(
    eq(stickySessions.tokenId, f.tokenId),
    eq(stickySessions.userId, f.userId),
    // The window bound lets the (token_id, window_start) index narrow the rows; first_seen_at decides.
    gte(stickySessions.windowStart, f.windowsSince),
    gte(stickySessions.firstSeenAt, f.since),
  );
}

/** A page of the matching sessions, newest first. */
export async function listStickySessions(
  db: TDbOrTx,
  f: TSessionHoldsFilter,
  offset: number,
  limit: number,
): Promise<TStickySessionRow[]> {
  return db
    .select()
    .from(stickySessions)
    .where(whereOf(f))
    .orderBy(desc(stickySessions.firstSeenAt), asc(stickySessions.session), desc(stickySessions.windowStart))
    .offset(offset)
    .limit(limit);
}

/** Count of the matching sessions, and of those that ended early per reason. */
export async function countStickySessions(
  db: TDbOrTx,
  f: TSessionHoldsFilter,
): Promise<{ sessions: number; ends: Record<TStickySessionEnd, number> }> {
  const rows = await db
    .select({ reason: stickySessions.endReason, count: sql<number>`count(*)::int` })
    .from(stickySessions)
    .where(whereOf(f))
    .groupBy(stickySessions.endReason);
  const ends = Object.fromEntries(STICKY_SESSION_ENDS.map((r) => [r, 0])) as Record<TStickySessionEnd, number>;
  let sessions = 0;
  for (const row of rows) {
    const count = Number(row.count);
    sessions += count;
    if (row.reason !== null) ends[row.reason] += count;
  }
  return { sessions, ends };
}

/** Deletes up to `limit` sticky session rows whose window started before `before`; answers how many. */
export async function deleteStickySessionsBefore(db: TDbOrTx, before: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM sticky_sessions WHERE (token_id, session, window_start) IN (
      SELECT token_id, session, window_start FROM sticky_sessions WHERE window_start < ${before.toISOString()}::timestamptz LIMIT ${limit})`);
  return rowCountOf(result);
}

/**
 * Deletes up to `limit` exit claims that lapsed before `now`; answers how many. A claim a gateway renewed between
 * the two reads lapses later and stays.
 */
export async function deleteLapsedExitClaims(db: TDbOrTx, now: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM session_exit_claims WHERE expires_at < ${now.toISOString()}::timestamptz AND (user_id, exit_key) IN (
      SELECT user_id, exit_key FROM session_exit_claims WHERE expires_at < ${now.toISOString()}::timestamptz LIMIT ${limit})`);
  return rowCountOf(result);
}

function rowCountOf(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
