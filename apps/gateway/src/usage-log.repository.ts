import { eq } from 'drizzle-orm';
import type { usageLogEntries } from '@proxy/db';
import { gatewayUsageBatches, usageLogSettings, users, type TDb } from '@proxy/db';
import { rawRows } from './raw-rows.repository';

/** The accounts that opted in to the per-connection usage log (few rows: only those who chose). */
export async function loadUsageLogUsers(db: TDb): Promise<number[]> {
  const rows = await db
    .select({ userId: usageLogSettings.userId })
    .from(usageLogSettings)
    .where(eq(usageLogSettings.enabled, true));
  return rows.map((r) => r.userId);
}

/** The accounts that turned their usage by target domain off (few rows: it is on by default). */
export async function loadDomainUsageOffUsers(db: TDb): Promise<number[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.domainUsageEnabled, false));
  return rows.map((r) => r.id);
}

/** One connection of the usage log as the gateway writes it (its expiry day is set by the INSERT from the owner's retention). */
export type TUsageLogRow = Omit<typeof usageLogEntries.$inferInsert, 'expiresOn'>;

/** One flush of usage log rows: its id (in gateway_usage_batches, like the meter's) makes writing it again a no-op. */
export type TUsageLogBatch = { id: string; rows: TUsageLogRow[] };

// One INSERT per batch from 16 arrays (unnest): 16 parameters whatever the batch holds, far less work to
// build and parse than a parameter per value (the gateway's event loop pays for it, with PGlite in-process too).
// expires_on (the partition key: the last day the row is kept) is the day plus the owner's retention now; a
// day whose partition is missing lands in the table's DEFAULT partition, so the write never fails for it.
const INSERT_LOG_ROWS = `INSERT INTO usage_log_entries
  (user_id, token_id, day, protocol, source_ip, target_host, target_port, started_at, ended_at, bytes_up, bytes_down, outcome, reason, carrier, exit_changed, uncharged_bytes, expires_on)
  SELECT r.*, r.day + COALESCE(s.retention_days, 1)
  FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::int[],
    $8::timestamptz[], $9::timestamptz[], $10::bigint[], $11::bigint[], $12::text[], $13::text[], $14::text[], $15::boolean[], $16::bigint[])
    AS r(user_id, token_id, day, protocol, source_ip, target_host, target_port, started_at, ended_at, bytes_up, bytes_down, outcome, reason, carrier, exit_changed, uncharged_bytes)
  LEFT JOIN usage_log_settings s ON s.user_id = r.user_id`;

/** Writes a batch of usage log rows in one transaction; answers false when the batch was already written. */
export async function writeUsageLog(db: TDb, batch: TUsageLogBatch): Promise<boolean> {
  if (batch.rows.length === 0) return false;
  const rows = batch.rows;
  const column = <T>(pick: (r: TUsageLogRow) => T) => rows.map(pick);
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(gatewayUsageBatches)
      .values({ id: batch.id })
      .onConflictDoNothing()
      .returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
    await rawRows(tx, INSERT_LOG_ROWS, [
      column((r) => r.userId),
      column((r) => r.tokenId),
      column((r) => r.day),
      column((r) => r.protocol),
      column((r) => r.sourceIp),
      column((r) => r.targetHost),
      column((r) => r.targetPort),
      column((r) => (r.startedAt as Date).toISOString()),
      column((r) => (r.endedAt as Date).toISOString()),
      column((r) => r.bytesUp),
      column((r) => r.bytesDown),
      column((r) => r.outcome),
      column((r) => r.reason ?? null),
      column((r) => r.carrier ?? null),
      column((r) => r.exitChanged ?? false),
      column((r) => r.unchargedBytes ?? 0),
    ]);
    return true;
  });
}
