import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { gatewayInstances, gatewayLeases, proxyTokens, type TDb } from '@proxy/db';
import { USAGE_BATCH_RETENTION_MS } from './meter.repository';

/**
 * Claims up to `slice` bytes of a traffic token's allowance for this gateway
 * (recorded as its lease). Answers the bytes granted (0 when the allowance is all handed out).
 */
export async function claimLease(db: TDb, instanceId: string, tokenId: number, slice: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        limit: proxyTokens.trafficLimitBytes,
        leased: proxyTokens.trafficLeasedBytes,
        used: proxyTokens.trafficUsedBytes,
      })
      .from(proxyTokens)
      .where(and(eq(proxyTokens.id, tokenId), isNotNull(proxyTokens.trafficLimitBytes)))
      .for('update');
    if (!row || row.limit === null) return 0;
    // Leases never exceed the limit; bytes already used (e.g. by a gateway that overshot) count too.
    const floor = Math.max(row.leased, row.used);
    const granted = Math.max(0, Math.min(slice, row.limit - floor));
    if (granted === 0) return 0;
    await tx
      .update(proxyTokens)
      .set({ trafficLeasedBytes: floor + granted })
      .where(eq(proxyTokens.id, tokenId));
    await tx
      .insert(gatewayLeases)
      .values({ instanceId, tokenId, bytes: granted })
      .onConflictDoUpdate({
        target: [gatewayLeases.instanceId, gatewayLeases.tokenId],
        set: { bytes: sql`${gatewayLeases.bytes} + excluded.bytes` },
      });
    return granted;
  });
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
