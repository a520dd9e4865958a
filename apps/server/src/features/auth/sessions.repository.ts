import { and, desc, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import { userSessions, users, type TDbOrTx } from '@proxy/db';
import type { TSignInMethod } from '@proxy/contract';

/** A session row (one sign-in: its method, device, address and use). */
export type TSessionRow = typeof userSessions.$inferSelect;

/** Stores a new session; answers its row. */
export async function insertSession(
  db: TDbOrTx,
  row: { userId: number; method: TSignInMethod; userAgent: string; ip: string; at: Date },
): Promise<TSessionRow> {
  const [inserted] = await db
    .insert(userSessions)
    .values({
      userId: row.userId,
      method: row.method,
      userAgent: row.userAgent,
      ip: row.ip,
      createdAt: row.at,
      lastUsedAt: row.at,
    })
    .returning();
  return inserted;
}

/**
 * A user and one of their sessions in one round trip (each authenticated
 * request needs both): undefined for an unknown user; `session` null when the
 * session is another user's or unknown.
 */
export async function findUserAndSession(
  db: TDbOrTx,
  userId: number,
  sessionId: number,
): Promise<{ user: typeof users.$inferSelect; session: TSessionRow | null } | undefined> {
  const [row] = await userAndSessionQuery(db).execute({ userId, sessionId });
  return row;
}

// The query of every authenticated request, built once per database (not per request): a prepared statement.
const userAndSessionQueries = new WeakMap<TDbOrTx, ReturnType<typeof prepareUserAndSession>>();
function prepareUserAndSession(db: TDbOrTx) {
  return db
    .select({ user: users, session: userSessions })
    .from(users)
    .leftJoin(userSessions, and(eq(userSessions.id, sql.placeholder('sessionId')), eq(userSessions.userId, users.id)))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('find_user_and_session');
}
function userAndSessionQuery(db: TDbOrTx) {
  let query = userAndSessionQueries.get(db);
  if (!query) userAndSessionQueries.set(db, (query = prepareUserAndSession(db)));
  return query;
}

/**
 * Stamps the use of a live session (time and address) unless it was stamped
 * at or after `staleBefore`: the condition makes parallel requests and
 * instances write it at most once per interval.
 */
export async function touchSession(
  db: TDbOrTx,
  sessionId: number,
  at: Date,
  ip: string,
  staleBefore: Date,
): Promise<void> {
  await db
    .update(userSessions)
    .set({ lastUsedAt: at, ip })
    .where(
      and(eq(userSessions.id, sessionId), isNull(userSessions.endedAt), lte(userSessions.lastUsedAt, staleBefore)),
    );
}

/** The user's sessions that are not ended and were used after `usedAfter`, newest first. */
export async function listLiveSessions(db: TDbOrTx, userId: number, usedAfter: Date): Promise<TSessionRow[]> {
  return db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt), gt(userSessions.lastUsedAt, usedAfter)))
    .orderBy(desc(userSessions.createdAt), desc(userSessions.id));
}

/** Ends one live session of a user; false when it is not theirs, unknown or already ended. */
export async function endUserSession(db: TDbOrTx, userId: number, sessionId: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(userSessions)
    .set({ endedAt: at })
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.endedAt)))
    .returning({ id: userSessions.id });
  return rows.length > 0;
}

/** Ends every live session of a user (sign out everywhere, password change or reset, disabling). */
export async function endAllUserSessions(db: TDbOrTx, userId: number, at: Date): Promise<void> {
  await db
    .update(userSessions)
    .set({ endedAt: at })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt)));
}

/** Ends every live session of a user but one (the one that turned two-factor on). */
export async function endOtherUserSessions(
  db: TDbOrTx,
  userId: number,
  keptSessionId: number,
  at: Date,
): Promise<void> {
  await db
    .update(userSessions)
    .set({ endedAt: at })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt), ne(userSessions.id, keptSessionId)));
}

/** True when the user has had a session from this address (a known address of the account). */
export async function hasSessionFromAddress(db: TDbOrTx, userId: number, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), eq(userSessions.ip, ip)))
    .limit(1);
  return Boolean(row);
}
