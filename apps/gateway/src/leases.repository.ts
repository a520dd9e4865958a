import { eq, sql } from 'drizzle-orm';
import { gatewayInstances, proxyTokens, type TDb } from '@proxy/db';
import { USAGE_BATCH_RETENTION_MS } from './meter.repository';

/**
 * Claims up to `slice` bytes of a traffic token's allowance for this gateway
 * (recorded as its lease). Answers the bytes granted (0 when the allowance is all handed out).
 *
 * Granted against what no gateway holds: the limit minus the bytes leased (every lease handed out, written
 * as used or not) or used, whichever is more (bytes a gateway carried past its lease count too). One
 * statement, the token row locked: the data path claims every half lease, so a claim must be cheap.
 */
export async function claimLease(db: TDb, instanceId: string, tokenId: number, slice: number): Promise<number> {
  const result = await db.execute(sql`
    WITH token AS (
      SELECT id, traffic_limit_bytes - GREATEST(traffic_leased_bytes, traffic_used_bytes) AS free,
             GREATEST(traffic_leased_bytes, traffic_used_bytes) AS floor
      FROM proxy_tokens WHERE id = ${tokenId} AND traffic_limit_bytes IS NOT NULL FOR UPDATE
    ), claimed AS (
      UPDATE proxy_tokens p SET traffic_leased_bytes = token.floor + LEAST(${slice}::bigint, token.free)
      FROM token WHERE p.id = token.id AND token.free > 0
      RETURNING LEAST(${slice}::bigint, token.free) AS granted
    ), held AS (
      INSERT INTO gateway_leases (instance_id, token_id, bytes)
      SELECT ${instanceId}::uuid, ${tokenId}, granted FROM claimed
      ON CONFLICT (instance_id, token_id) DO UPDATE SET bytes = gateway_leases.bytes + excluded.bytes
    )
    SELECT granted FROM claimed`);
  const [row] = rowsOf<{ granted: string | number }>(result);
  return row ? Number(row.granted) : 0;
}

/**
 * Gives back `bytes` of this gateway's lease of a token that carried nothing lately (unspent, so other
 * gateways may claim it). Answers nothing; the lease row and the token's leased bytes drop together.
 */
export async function returnLease(db: TDb, instanceId: string, tokenId: number, bytes: number): Promise<void> {
  // The token row first, then the lease row: the order every writer locks them in.
  await db.execute(sql`
    WITH token AS (
      UPDATE proxy_tokens p
      SET traffic_leased_bytes = GREATEST(p.traffic_used_bytes, p.traffic_leased_bytes - ${bytes}::bigint)
      WHERE p.id = ${tokenId}
        AND EXISTS (SELECT 1 FROM gateway_leases l WHERE l.instance_id = ${instanceId}::uuid AND l.token_id = ${tokenId})
      RETURNING p.id
    )
    UPDATE gateway_leases SET bytes = GREATEST(0, bytes - ${bytes}::bigint)
    WHERE instance_id = ${instanceId}::uuid AND token_id IN (SELECT id FROM token)`);
}

/** Records a running gateway (or its heartbeat). Answers false when it had no row (new, or swept as stale: its leases are gone). */
export async function heartbeat(db: TDb, instanceId: string, label: string): Promise<boolean> {
  const touched = await db
    .update(gatewayInstances)
    .set({ heartbeatAt: sql`now()` })
    .where(eq(gatewayInstances.id, instanceId))
    .returning({ id: gatewayInstances.id });
  if (touched.length > 0) return true;
  await db.insert(gatewayInstances).values({ id: instanceId, label }).onConflictDoNothing();
  return false;
}

/**
 * Returns the leases of gateways gone (a stale heartbeat, or no row) or of
 * `instanceId` (its clean stop): each token's `traffic_leased_bytes` drops by
 * what those gateways held and had not written as used. Also forgets stale
 * gateways and usage batches past their retention. Answers the leases returned.
 */
export async function releaseLeases(db: TDb, options: { staleAfterMs: number; instanceId?: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = sql`now() - make_interval(secs => ${options.staleAfterMs / 1000})`;
    const own = options.instanceId ?? null;
    const gone = await tx.execute(sql`
      DELETE FROM gateway_leases l
      WHERE l.instance_id = ${own}::uuid
         OR NOT EXISTS (SELECT 1 FROM gateway_instances i WHERE i.id = l.instance_id AND i.heartbeat_at > ${stale})
      RETURNING l.token_id, l.bytes`);
    const perToken = new Map<number, number>();
    for (const r of rowsOf<{ token_id: string | number; bytes: string | number }>(gone))
      perToken.set(Number(r.token_id), (perToken.get(Number(r.token_id)) ?? 0) + Number(r.bytes));
    // Token rows in id order, as every other writer locks them.
    for (const tokenId of [...perToken.keys()].sort((a, b) => a - b)) {
      const bytes = perToken.get(tokenId) ?? 0;
      if (bytes <= 0) continue;
      await tx
        .update(proxyTokens)
        .set({
          trafficLeasedBytes: sql`GREATEST(${proxyTokens.trafficUsedBytes}, ${proxyTokens.trafficLeasedBytes} - ${bytes})`,
        })
        .where(eq(proxyTokens.id, tokenId));
    }
    await tx.execute(sql`DELETE FROM gateway_instances WHERE id = ${own}::uuid OR heartbeat_at <= ${stale}`);
    await tx.execute(
      sql`DELETE FROM gateway_usage_batches WHERE created_at < now() - make_interval(secs => ${USAGE_BATCH_RETENTION_MS / 1000})`,
    );
    return perToken.size;
  });
}

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
