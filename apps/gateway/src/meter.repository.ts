import { eq, sql } from 'drizzle-orm';
import { carrierUsage, gatewayUsageBatches, proxyTokens, tokenUsage, type TCarrierKind, type TDb } from '@proxy/db';

/** Bytes and ended connections of a token through one carrier for one country in a batch. */
export type TCarrierUsageRow = {
  tokenId: number;
  kind: TCarrierKind;
  carrierId: number;
  country: string;
  bytes: number;
  connections: number;
};

/**
 * One flush of metered bytes: its id makes writing it again a no-op. `carriers` attribute each token's bytes to
 * the carriers that carried them (their bytes sum to the token's row exactly).
 */
export type TUsageBatch = {
  id: string;
  bucket: Date;
  rows: { tokenId: number; userId: number; bytes: number }[];
  carriers?: TCarrierUsageRow[];
};

/** Written batches are kept this long (a batch retried later than this would count twice). */
export const USAGE_BATCH_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Writes a batch of metered bytes in one short transaction: its id, the hourly
 * buckets, the tokens' used counters, and what of this gateway's leases the
 * bytes spent. A batch whose id is already recorded (its commit went through
 * but the answer was lost) writes nothing: answers false.
 */
export async function writeUsage(db: TDb, batch: TUsageBatch, instanceId: string): Promise<boolean> {
  const carriers = batch.carriers ?? [];
  if (batch.rows.length === 0 && carriers.length === 0) return false;
  const rows = [...batch.rows].sort((a, b) => a.tokenId - b.tokenId);
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(gatewayUsageBatches)
      .values({ id: batch.id })
      .onConflictDoNothing()
      .returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
    // The UTC day of the batch's hour: carrier_usage's day.
    const day = batch.bucket.toISOString().slice(0, 10);
    if (carriers.length > 0)
      await tx
        .insert(carrierUsage)
        .values(
          // In key order, as every gateway writes them (no two batches wait on each other's rows).
          [...carriers]
            .sort(
              (a, b) =>
                a.tokenId - b.tokenId ||
                a.kind.localeCompare(b.kind) ||
                a.carrierId - b.carrierId ||
                a.country.localeCompare(b.country),
            )
            .map((c) => ({
              day,
              tokenId: c.tokenId,
              carrierKind: c.kind,
              carrierId: c.carrierId,
              country: c.country,
              bytes: c.bytes,
              connections: c.connections,
            })),
        )
        .onConflictDoUpdate({
          target: [
            carrierUsage.day,
            carrierUsage.tokenId,
            carrierUsage.carrierKind,
            carrierUsage.carrierId,
            carrierUsage.country,
          ],
          set: {
            bytes: sql`${carrierUsage.bytes} + excluded.bytes`,
            connections: sql`${carrierUsage.connections} + excluded.connections`,
          },
        });
    if (rows.length === 0) return true;
    await tx
      .insert(tokenUsage)
      .values(rows.map((r) => ({ tokenId: r.tokenId, userId: r.userId, bucket: batch.bucket, bytes: r.bytes })))
      .onConflictDoUpdate({
        target: [tokenUsage.tokenId, tokenUsage.bucket],
        set: { bytes: sql`${tokenUsage.bytes} + excluded.bytes` },
      });
    // Token rows in id order, as every other writer locks them.
    for (const r of rows) {
      await tx
        .update(proxyTokens)
        .set({ trafficUsedBytes: sql`${proxyTokens.trafficUsedBytes} + ${r.bytes}` })
        .where(eq(proxyTokens.id, r.tokenId));
    }
    const spent = sql.join(
      rows.map((r) => sql`(${r.tokenId}::bigint, ${r.bytes}::bigint)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE gateway_leases l SET bytes = GREATEST(0, l.bytes - s.bytes)
      FROM (VALUES ${spent}) AS s(token_id, bytes)
      WHERE l.instance_id = ${instanceId} AND l.token_id = s.token_id`);
    return true;
  });
}
