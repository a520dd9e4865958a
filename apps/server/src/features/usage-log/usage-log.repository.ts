import { and, asc, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import { usageLogEntries, usageLogSettings, type TDb, type TDbOrTx } from '@proxy/db';
import type { TUsageLogOutcome } from '@proxy/contract';

/** The usage log's rows: the account setting, the connections and what retention drops. */

/** A setting row. */
export type TUsageLogSettingsRow = typeof usageLogSettings.$inferSelect;
/** A connection row. */
export type TUsageLogEntryRow = typeof usageLogEntries.$inferSelect;

/** The account's setting (undefined: never chosen, the log is off). */
export async function findUsageLogSettings(db: TDbOrTx, userId: number): Promise<TUsageLogSettingsRow | undefined> {
  const [row] = await db.select().from(usageLogSettings).where(eq(usageLogSettings.userId, userId));
  return row;
}

/** Writes the account's setting. */
export async function saveUsageLogSettings(tx: TDbOrTx, userId: number, enabled: boolean, retentionDays: number): Promise<TUsageLogSettingsRow> {
  const [row] = await tx
    .insert(usageLogSettings)
    .values({ userId, enabled, retentionDays })
    .onConflictDoUpdate({ target: usageLogSettings.userId, set: { enabled, retentionDays, updatedAt: sql`now()` } })
    .returning();
  return row;
}

/** Which connections of one proxy: those that ended in [from, to), optionally by target host (a part of it) and outcome. */
export type TUsageLogFilter = { userId: number; tokenId: number; from: Date; to: Date; target?: string; outcome?: TUsageLogOutcome };

// LIKE's own characters in a user's text are matched as themselves.
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(f: TUsageLogFilter): SQL | undefined {
  return and(
    eq(usageLogEntries.tokenId, f.tokenId),
    eq(usageLogEntries.userId, f.userId),
    gte(usageLogEntries.endedAt, f.from),
    lt(usageLogEntries.endedAt, f.to),
    f.target ? ilike(usageLogEntries.targetHost, `%${likeEscape(f.target)}%`) : undefined,
    f.outcome ? eq(usageLogEntries.outcome, f.outcome) : undefined,
  );
}

/** Count and byte sums of every connection matching the filter. */
export async function sumUsageLog(db: TDb, f: TUsageLogFilter): Promise<{ connections: number; bytesUp: number; bytesDown: number }> {
  const [row] = await db
    .select({
      connections: sql<number>`count(*)::int`,
      bytesUp: sql<string>`coalesce(sum(${usageLogEntries.bytesUp}), 0)::text`,
      bytesDown: sql<string>`coalesce(sum(${usageLogEntries.bytesDown}), 0)::text`,
    })
    .from(usageLogEntries)
    .where(whereOf(f));
  return { connections: Number(row.connections), bytesUp: Number(row.bytesUp), bytesDown: Number(row.bytesDown) };
}

/** A page of the matching connections, newest first. */
export async function listUsageLog(db: TDb, f: TUsageLogFilter, offset: number, limit: number): Promise<TUsageLogEntryRow[]> {
  return db.select().from(usageLogEntries).where(whereOf(f)).orderBy(desc(usageLogEntries.endedAt), desc(usageLogEntries.id)).offset(offset).limit(limit);
}

/** The matching connections in time order (the CSV export), at most `limit`. */
export async function listUsageLogForExport(db: TDb, f: TUsageLogFilter, limit: number): Promise<TUsageLogEntryRow[]> {
  return db.select().from(usageLogEntries).where(whereOf(f)).orderBy(asc(usageLogEntries.endedAt), asc(usageLogEntries.id)).limit(limit);
}

/**
 * One step of retention: the oldest day holding rows past their owner's
 * retention (days before `today` minus retention_days; 1 day when the owner
 * has no setting any more), dropped for those owners in slices of `slice`
 * rows. Answers the rows deleted (0: nothing is past its retention).
 */
export async function dropExpiredUsageLog(db: TDb, today: string, slice: number): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM usage_log_entries WHERE id IN (
      SELECT e.id FROM usage_log_entries e
      LEFT JOIN usage_log_settings s ON s.user_id = e.user_id
      WHERE e.day < ${today}::date - COALESCE(s.retention_days, 1)
      ORDER BY e.day
      LIMIT ${slice})`);
  return rowCountOf(result);
}

function rowCountOf(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
