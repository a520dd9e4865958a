import { eq, sql } from 'drizzle-orm';
import { isSealedValue, POOL_PASSWORD_PURPOSE, pools, type TDb, type TSecretBox } from '@proxy/db';

/** An enabled pool's row as the gateway reads it (its password opened). */
export type TPoolRow = typeof pools.$inferSelect;

/**
 * The enabled pools (few rows), passwords opened: the API stores them sealed (POOL_PASSWORD_PURPOSE). A pool whose
 * password this gateway cannot open (no key, another key) is left out and reported by its id (never the password):
 * the other pools and the exits still load.
 */
export async function loadPools(
  db: TDb,
  box: TSecretBox | null,
  onSkipped: (poolId: number, why: string) => void,
): Promise<TPoolRow[]> {
  const rows = await db.select().from(pools).where(eq(pools.status, 'enabled')).orderBy(pools.id);
  const loaded: TPoolRow[] = [];
  for (const row of rows) {
    if (isSealedValue(row.password)) {
      if (!box) {
        onSkipped(row.id, 'its password is sealed and this gateway has no DATA_ENCRYPTION_KEY');
        continue;
      }
      try {
        row.password = box.open(row.password, POOL_PASSWORD_PURPOSE).plain;
      } catch {
        onSkipped(row.id, "its password is sealed under another DATA_ENCRYPTION_KEY than this gateway's");
        continue;
      }
    }
    loaded.push(row);
  }
  return loaded;
}

/** One pool's figures of this gateway process over its recent window (pool_health). */
export type TPoolHealthRow = {
  poolId: number;
  attempts: number;
  successes: number;
  connectMsTotal: number;
  refusals: Record<string, number>;
  open: number;
  circuitOpenUntil: Date | null;
  openAreas: string[];
};

/**
 * Writes this gateway's figures of every loaded pool (one row per pool, replaced) and removes its rows of pools it
 * no longer loads (paused, deleted), in one statement each, one transaction. A pool deleted meanwhile is skipped.
 */
export async function writePoolHealth(db: TDb, instanceId: string, rows: TPoolHealthRow[]): Promise<void> {
  const ids = rows.map((r) => r.poolId);
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM pool_health WHERE instance_id = ${instanceId}::uuid
      AND NOT (pool_id = ANY(${`{${ids.join(',')}}`}::bigint[]))`);
    if (rows.length === 0) return;
    const values = sql.join(
      rows.map(
        (r) =>
          sql`(${r.poolId}::bigint, ${r.attempts}::bigint, ${r.successes}::bigint, ${r.connectMsTotal}::bigint,
            ${JSON.stringify(r.refusals)}::jsonb, ${r.open}::int, ${r.circuitOpenUntil?.toISOString() ?? null}::timestamptz,
            ${JSON.stringify(r.openAreas)}::jsonb)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      INSERT INTO pool_health (instance_id, pool_id, attempts, successes, connect_ms_total, refusals, open,
        circuit_open_until, open_areas, reported_at)
      SELECT ${instanceId}::uuid, v.pool_id, v.attempts, v.successes, v.connect_ms_total, v.refusals, v.open,
        v.circuit_open_until, v.open_areas, now()
      FROM (VALUES ${values}) AS v(pool_id, attempts, successes, connect_ms_total, refusals, open, circuit_open_until, open_areas)
      WHERE EXISTS (SELECT 1 FROM pools p WHERE p.id = v.pool_id)
      ON CONFLICT (instance_id, pool_id) DO UPDATE SET attempts = excluded.attempts, successes = excluded.successes,
        connect_ms_total = excluded.connect_ms_total, refusals = excluded.refusals, open = excluded.open,
        circuit_open_until = excluded.circuit_open_until, open_areas = excluded.open_areas,
        reported_at = excluded.reported_at`);
  });
}
