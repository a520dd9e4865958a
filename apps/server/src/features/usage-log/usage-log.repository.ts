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

/**
 * Writes the account's setting. A shorter retention than before sets
 * trim_until to the last day rows written under the old one can reach
 * (`today` + the old retention; the later of it and a trim already running):
 * until then the retention job deletes the rows older than the new retention.
 * A longer one leaves the rows' own days as they are.
 */
export async function saveUsageLogSettings(
  tx: TDbOrTx,
  userId: number,
  enabled: boolean,
  retentionDays: number,
  today: string,
): Promise<TUsageLogSettingsRow> {
  const [row] = await tx
    .insert(usageLogSettings)
    .values({ userId, enabled, retentionDays })
    .onConflictDoUpdate({
      target: usageLogSettings.userId,
      set: {
        enabled,
        retentionDays,
        trimUntil: sql`CASE WHEN excluded.retention_days < ${usageLogSettings.retentionDays}
          THEN GREATEST(${usageLogSettings.trimUntil}, ${today}::date + ${usageLogSettings.retentionDays})
          ELSE ${usageLogSettings.trimUntil} END`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row;
}

/** Which connections of one proxy: those that ended in [from, to), optionally by target host (a part of it) and outcome. */
export type TUsageLogFilter = {
  userId: number;
  tokenId: number;
  from: Date;
  to: Date;
  target?: string;
  outcome?: TUsageLogOutcome;
};

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

/** Count and byte sums (the uncharged part too) of every connection matching the filter. */
export async function sumUsageLog(
  db: TDb,
  f: TUsageLogFilter,
): Promise<{ connections: number; bytesUp: number; bytesDown: number; unchargedBytes: number }> {
  const [row] = await db
    .select({
      connections: sql<number>`count(*)::int`,
      bytesUp: sql<string>`coalesce(sum(${usageLogEntries.bytesUp}), 0)::text`,
      bytesDown: sql<string>`coalesce(sum(${usageLogEntries.bytesDown}), 0)::text`,
      uncharged: sql<string>`coalesce(sum(${usageLogEntries.unchargedBytes}), 0)::text`,
    })
    .from(usageLogEntries)
    .where(whereOf(f));
  return {
    connections: Number(row.connections),
    bytesUp: Number(row.bytesUp),
    bytesDown: Number(row.bytesDown),
    unchargedBytes: Number(row.uncharged),
  };
}

/** A page of the matching connections, newest first. */
export async function listUsageLog(
  db: TDb,
  f: TUsageLogFilter,
  offset: number,
  limit: number,
): Promise<TUsageLogEntryRow[]> {
  return db
    .select()
    .from(usageLogEntries)
    .where(whereOf(f))
    .orderBy(desc(usageLogEntries.endedAt), desc(usageLogEntries.id))
    .offset(offset)
    .limit(limit);
}

/** The matching connections in time order (the CSV export), at most `limit`. */
export async function listUsageLogForExport(db: TDb, f: TUsageLogFilter, limit: number): Promise<TUsageLogEntryRow[]> {
  return db
    .select()
    .from(usageLogEntries)
    .where(whereOf(f))
    .orderBy(asc(usageLogEntries.endedAt), asc(usageLogEntries.id))
    .limit(limit);
}

// ---- Partitions (see usage_log_entries in the schema: PARTITION BY RANGE (expires_on), one partition per day) ----

const PARENT = 'usage_log_entries';
/** The partition that takes rows whose day's partition does not exist (made by the migration). */
export const USAGE_LOG_DEFAULT_PARTITION = 'usage_log_entries_default';
const DAY_PARTITION = /^usage_log_entries_p(\d{4})(\d{2})(\d{2})$/;
// A DDL statement waits at most this long for its lock, so writers never queue long behind it (the job retries next pass).
const DDL_LOCK_TIMEOUT = "SET LOCAL lock_timeout = '3s'";

/** The partition of the rows kept until `day` (YYYY-MM-DD) included. */
export function usageLogPartitionName(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `usage_log_entries_p${day.replace(/-/g, '')}`;
}

/** The day after `day` (YYYY-MM-DD, UTC). */
export function nextDay(day: string, days = 1): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The day partitions that exist, as their days (YYYY-MM-DD), oldest first. */
export async function listUsageLogPartitionDays(db: TDbOrTx): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = ${PARENT} AND p.relnamespace = to_regnamespace(current_schema())`)) as unknown as {
    rows: { name: string }[];
  };
  const days: string[] = [];
  for (const { name } of result.rows) {
    const m = DAY_PARTITION.exec(name);
    if (m) days.push(`${m[1]}-${m[2]}-${m[3]}`);
  }
  return days.sort();
}

/**
 * Creates the partition of `day` (rows with expires_on = day): made as a plain
 * table, given the rows of that day that waited in the default partition, then
 * attached, in one transaction (a partition cannot be created over rows the
 * default partition holds for it). The default partition is locked first, so
 * no row for that day slips in between; it is normally empty or small.
 */
export async function createUsageLogPartition(db: TDb, day: string): Promise<void> {
  const name = sql.raw(`"${usageLogPartitionName(day)}"`);
  const fallback = sql.raw(`"${USAGE_LOG_DEFAULT_PARTITION}"`);
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(DDL_LOCK_TIMEOUT));
    await tx.execute(sql`LOCK TABLE ${fallback} IN ACCESS EXCLUSIVE MODE`);
    await tx.execute(sql`CREATE TABLE ${name} (LIKE "usage_log_entries")`);
    await tx.execute(
      sql`WITH moved AS (DELETE FROM ${fallback} WHERE expires_on = ${day}::date RETURNING *) INSERT INTO ${name} SELECT * FROM moved`,
    );
    const bounds = sql.raw(`FROM ('${day}') TO ('${nextDay(day)}')`);
    await tx.execute(sql`ALTER TABLE "usage_log_entries" ATTACH PARTITION ${name} FOR VALUES ${bounds}`);
  });
}

/** Drops the partition of `day` whole (its rows have all aged out). */
export async function dropUsageLogPartition(db: TDb, day: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(DDL_LOCK_TIMEOUT));
    await tx.execute(sql.raw(`DROP TABLE IF EXISTS "${usageLogPartitionName(day)}"`));
  });
}

/**
 * Rows past their day that a partition drop does not reach (they waited in the
 * default partition): deleted a slice at a time. Answers the rows deleted.
 */
export async function deleteExpiredUsageLogRows(db: TDb, today: string, slice: number): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM usage_log_entries WHERE (id, expires_on) IN (
      SELECT id, expires_on FROM usage_log_entries WHERE expires_on < ${today}::date LIMIT ${slice})`);
  return rowCountOf(result);
}

/**
 * Accounts that shortened their retention (trim_until not past): their rows
 * older than the new retention, still in partitions of later days, deleted a
 * slice at a time (index on user_id, day). Answers the rows deleted.
 */
export async function trimShortenedUsageLog(db: TDb, today: string, slice: number): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM usage_log_entries WHERE (id, expires_on) IN (
      SELECT e.id, e.expires_on FROM usage_log_settings s
      JOIN usage_log_entries e ON e.user_id = s.user_id AND e.day < ${today}::date - s.retention_days
      WHERE s.trim_until >= ${today}::date
      LIMIT ${slice})`);
  return rowCountOf(result);
}

/** Forgets shortenings whose older rows have all reached their own day (answers how many). */
export async function endUsageLogTrims(db: TDb, today: string): Promise<number> {
  const result = await db.execute(
    sql`UPDATE usage_log_settings SET trim_until = NULL WHERE trim_until < ${today}::date`,
  );
  return rowCountOf(result);
}

function rowCountOf(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
