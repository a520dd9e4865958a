import { eq, sql } from 'drizzle-orm';
import { gatewayUsageBatches, proxyTokens, tokenUsage, type TDb } from '@proxy/db';

/** One flush of metered bytes: its id makes writing it again a no-op. */
export type TUsageBatch = { id: string; bucket: Date; rows: { tokenId: number; userId: number; bytes: number }[] };

/** Written batches are kept this long (a batch retried later than this would count twice). */
export const USAGE_BATCH_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Writes a batch of metered bytes in one short transaction: its id, the hourly
 * buckets, the tokens' used counters, and what of this gateway's leases the
 * bytes spent. A batch whose id is already recorded (its commit went through
 * but the answer was lost) writes nothing: answers false.
 */
export async function writeUsage(db: TDb, batch: TUsageBatch, instanceId: string): Promise<boolean> {
  if (batch.rows.length === 0) return false;
  const rows = [...batch.rows].sort((a, b) => a.tokenId - b.tokenId);
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(gatewayUsageBatches)
      .values({ id: batch.id })
      .onConflictDoNothing()
      .returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
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
