import { and, asc, between, eq, sql, type SQL } from 'drizzle-orm';
import { BYTES_PER_GB, type TEconomicsQuery } from '@proxy/contract';
import { carrierUsage, poolReconciliation, pools, type TDbOrTx } from '@proxy/db';

/**
 * The economics' SQL (docs/economics.md). Every figure is summed in `numeric` and read back as a decimal string, so
 * no amount passes through a float before it is exact; each fine row is rounded once, half up, to the fen.
 */

/** One group of the report as the database summed it (decimal strings: exact). */
export type TEconomicsGroupRow = {
  line: 'carried' | 'sold_not_carried';
  day: string | null;
  carrier_kind: 'pool' | 'exit' | 'none' | null;
  carrier_id: string | null;
  carrier_name: string | null;
  category: 'isp' | 'idc' | null;
  product: 'static' | 'dynamic' | null;
  billing: 'traffic' | 'ip' | null;
  country: string | null;
  bytes: string;
  /** Bytes metered but not charged (lost to a failure before the target answered): a cost, no revenue. */
  uncharged_bytes: string;
  cost_fen: string;
  revenue_fen: string;
};

type TGroup = TEconomicsQuery['group_by'];

// What each grouping keeps of a fine row; the other keys are null. Fixed SQL text: never built from input.
const GROUP_KEYS: Record<TGroup, { select: string; groupBy: string; orderBy: string }> = {
  day: {
    select: `f.day::text AS day, NULL AS carrier_kind, NULL AS carrier_id, NULL AS carrier_name,
      NULL AS category, NULL AS product, NULL AS billing, NULL AS country`,
    groupBy: 'f.line, f.day',
    orderBy: 'f.line, f.day',
  },
  carrier: {
    select: `NULL AS day, f.carrier_kind, f.carrier_id::text AS carrier_id,
      CASE f.carrier_kind
        WHEN 'pool' THEN coalesce(max(pp.name), '#' || f.carrier_id::text)
        WHEN 'exit' THEN coalesce(max(CASE WHEN ee.egress = 'direct' THEN 'direct ' || ee.country
          ELSE ee.host || ':' || ee.port::text END), '#' || f.carrier_id::text)
      END AS carrier_name,
      NULL AS category, NULL AS product, NULL AS billing, NULL AS country`,
    groupBy: 'f.line, f.carrier_kind, f.carrier_id',
    orderBy: `f.line, CASE f.carrier_kind WHEN 'pool' THEN 0 WHEN 'exit' THEN 1 ELSE 2 END, f.carrier_id`,
  },
  product: {
    select: `NULL AS day, NULL AS carrier_kind, NULL AS carrier_id, NULL AS carrier_name,
      f.category, f.product, f.billing, NULL AS country`,
    groupBy: 'f.line, f.category, f.product, f.billing',
    orderBy: 'f.line, f.category, f.product, f.billing',
  },
  area: {
    select: `NULL AS day, NULL AS carrier_kind, NULL AS carrier_id, NULL AS carrier_name,
      NULL AS category, NULL AS product, NULL AS billing, f.country`,
    groupBy: 'f.line, f.country',
    orderBy: 'f.line, f.country',
  },
};

/**
 * The report's groups over [from, to] (UTC days, both included). The fine rows, one per:
 * - carrier_usage row (day, token, carrier, area): its bytes and uncharged bytes; a pool's cost
 *   `(bytes + uncharged bytes) x cost_per_gb_fen / 1024^3` (the provider bills every byte, the customer was not
 *   charged the uncharged ones); a traffic proxy's revenue `bytes x order cost / (order quantity x the token's
 *   allowance)`, of the charged bytes only; each rounded half up;
 * - day an IP-billed proxy was held (created day to the day before its expiry): its period price spread over its
 *   period days so each period sums exactly to the price; on the carrier and area that carried most of its bytes
 *   that day, else its pinned exit, else none;
 * - day an exit with a cost per day carried bytes or was held by a live static IP proxy: that cost, on the
 *   product and area that carried most of its bytes that day, else on its holder's;
 * - expired traffic proxy (expiry in the range and passed): its unused allowance and that allowance's revenue.
 */
export async function sumEconomics(
  db: TDbOrTx,
  range: { from: string; to: string; now: Date },
  groupBy: TGroup,
): Promise<TEconomicsGroupRow[]> {
  const { from, to, now } = range;
  const keys = GROUP_KEYS[groupBy];
  const joins =
    groupBy === 'carrier'
      ? sql.raw(`LEFT JOIN pools pp ON f.carrier_kind = 'pool' AND pp.id = f.carrier_id
      LEFT JOIN exit_nodes ee ON f.carrier_kind = 'exit' AND ee.id = f.carrier_id`)
      : sql.raw('');
  const result = (await db.execute(sql`
    WITH cu AS (
      SELECT c.day, c.token_id, c.carrier_kind, c.carrier_id, c.country, c.bytes, c.uncharged_bytes,
        t.category, t.product, t.billing,
        CASE WHEN c.carrier_kind = 'pool' AND p.cost_per_gb_fen > 0
          THEN div((c.bytes + c.uncharged_bytes)::numeric * p.cost_per_gb_fen * 2 + ${BYTES_PER_GB}, ${2 * BYTES_PER_GB})
          ELSE 0 END AS cost,
        CASE WHEN t.billing = 'traffic' AND o.quantity > 0 AND t.traffic_limit_bytes > 0
          THEN div(c.bytes::numeric * o.cost_fen * 2 + o.quantity::numeric * t.traffic_limit_bytes,
                   2 * o.quantity::numeric * t.traffic_limit_bytes)
          ELSE 0 END AS revenue
      FROM carrier_usage c
      LEFT JOIN proxy_tokens t ON t.id = c.token_id
      LEFT JOIN proxy_orders o ON o.id = t.order_id
      LEFT JOIN pools p ON c.carrier_kind = 'pool' AND p.id = c.carrier_id
      WHERE c.day BETWEEN ${from}::date AND ${to}::date
    ),
    held AS (
      SELECT t.id AS token_id, d.day, t.category, t.product, t.billing, t.country, t.exit_node_id,
        (t.deleted_at IS NULL OR d.day < (t.deleted_at AT TIME ZONE 'UTC')::date) AS is_live,
        (d.day - (t.created_at AT TIME ZONE 'UTC')::date) % t.period_days AS k,
        t.period_days, t.period_price_fen
      FROM proxy_tokens t
      CROSS JOIN LATERAL (
        SELECT g::date AS day FROM generate_series(
          greatest((t.created_at AT TIME ZONE 'UTC')::date, ${from}::date)::timestamp,
          least((t.expires_at AT TIME ZONE 'UTC')::date - 1, ${to}::date)::timestamp,
          interval '1 day') g
      ) d
      WHERE t.billing = 'ip' AND t.period_days > 0
        AND t.created_at < ${to}::date + 1 AND t.expires_at > ${from}::date
    ),
    top AS (
      SELECT DISTINCT ON (day, token_id) day, token_id, carrier_kind, carrier_id, country
      FROM cu WHERE bytes > 0
      ORDER BY day, token_id, bytes DESC, carrier_kind, carrier_id, country
    ),
    exit_use AS (
      SELECT day, carrier_id, category, product, billing, country, sum(bytes) AS bytes
      FROM cu WHERE carrier_kind = 'exit' AND bytes > 0
      GROUP BY day, carrier_id, category, product, billing, country
    ),
    -- Who an exit's day is charged to: the product and area that carried most bytes through it, else its holder.
    -- One sort, no join between the CTEs (their row estimates are guesses: a nested loop over them was quadratic).
    exit_days AS (
      SELECT DISTINCT ON (day, exit_id) * FROM (
        SELECT day, carrier_id AS exit_id, 0 AS pick, bytes, 0::bigint AS token_id, category, product, billing, country
        FROM exit_use
        UNION ALL
        SELECT day, exit_node_id, 1, 0, token_id, category, product, billing, country
        FROM held WHERE product = 'static' AND exit_node_id IS NOT NULL AND is_live
      ) candidates
      ORDER BY day, exit_id, pick, bytes DESC, token_id, category, product, billing, country
    ),
    fine AS (
      SELECT 'carried' AS line, day, carrier_kind, carrier_id, country, category, product, billing,
        bytes::numeric AS bytes, uncharged_bytes::numeric AS uncharged, cost::numeric AS cost, revenue::numeric AS revenue
      FROM cu
      UNION ALL
      SELECT 'carried', h.day,
        coalesce(top.carrier_kind, CASE WHEN h.exit_node_id IS NULL THEN 'none' ELSE 'exit' END),
        coalesce(top.carrier_id, h.exit_node_id, 0), coalesce(top.country, h.country),
        h.category, h.product, h.billing, 0, 0, 0,
        div((h.k + 1) * h.period_price_fen::numeric, h.period_days) - div(h.k * h.period_price_fen::numeric, h.period_days)
      FROM held h LEFT JOIN top ON top.day = h.day AND top.token_id = h.token_id
      UNION ALL
      SELECT 'carried', ed.day, 'exit', ed.exit_id, ed.country, ed.category, ed.product, ed.billing,
        0, 0, e.cost_per_day_fen, 0
      FROM exit_days ed JOIN exit_nodes e ON e.id = ed.exit_id AND e.cost_per_day_fen > 0
      UNION ALL
      SELECT 'sold_not_carried', (t.expires_at AT TIME ZONE 'UTC')::date, NULL, NULL, t.country,
        t.category, t.product, t.billing,
        (t.traffic_limit_bytes - t.traffic_used_bytes)::numeric, 0, 0,
        div((t.traffic_limit_bytes - t.traffic_used_bytes)::numeric * o.cost_fen * 2
              + o.quantity::numeric * t.traffic_limit_bytes,
            2 * o.quantity::numeric * t.traffic_limit_bytes)
      FROM proxy_tokens t JOIN proxy_orders o ON o.id = t.order_id
      WHERE t.billing = 'traffic' AND t.traffic_limit_bytes > t.traffic_used_bytes AND o.quantity > 0
        AND t.expires_at <= ${now}
        AND t.expires_at >= ${from}::date AND t.expires_at < ${to}::date + 1
    )
    SELECT f.line, ${sql.raw(keys.select)},
      sum(f.bytes)::text AS bytes, sum(f.uncharged)::text AS uncharged_bytes, sum(f.cost)::text AS cost_fen, sum(f.revenue)::text AS revenue_fen
    FROM fine f ${joins}
    GROUP BY ${sql.raw(keys.groupBy)}
    ORDER BY ${sql.raw(keys.orderBy)}
  `)) as unknown as { rows: TEconomicsGroupRow[] };
  return result.rows;
}

/** A pool's name, or undefined when there is no such pool. */
export async function findPoolName(db: TDbOrTx, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: pools.name }).from(pools).where(eq(pools.id, id));
  return row?.name;
}

/** Locks a pool's row for an import (a pool deleted meanwhile is not imported into); its name or undefined. */
export async function lockPool(db: TDbOrTx, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: pools.name }).from(pools).where(eq(pools.id, id)).for('update');
  return row?.name;
}

/**
 * Our bytes through a pool per day in [from, to] (days without bytes absent): charged and uncharged alike, as the
 * provider counts every byte it carried.
 */
export async function sumPoolBytesByDay(
  db: TDbOrTx,
  poolId: number,
  from: string,
  to: string,
): Promise<{ day: string; bytes: string }[]> {
  return db
    .select({
      day: carrierUsage.day,
      bytes: sql<string>`sum(${carrierUsage.bytes} + ${carrierUsage.unchargedBytes})::text`,
    })
    .from(carrierUsage)
    .where(
      and(
        eq(carrierUsage.carrierKind, 'pool'),
        eq(carrierUsage.carrierId, poolId),
        between(carrierUsage.day, from, to),
      ) as SQL,
    )
    .groupBy(carrierUsage.day)
    .orderBy(asc(carrierUsage.day));
}

/** The provider's bytes of a pool per day in [from, to]. */
export async function listProviderBytes(
  db: TDbOrTx,
  poolId: number,
  from: string,
  to: string,
): Promise<{ day: string; bytes: number }[]> {
  return db
    .select({ day: poolReconciliation.day, bytes: poolReconciliation.providerBytes })
    .from(poolReconciliation)
    .where(and(eq(poolReconciliation.poolId, poolId), between(poolReconciliation.day, from, to)))
    .orderBy(asc(poolReconciliation.day));
}

/** Stores a provider report's days for a pool: each day replaces the one stored (other days are kept). */
export async function upsertProviderBytes(
  db: TDbOrTx,
  poolId: number,
  days: { day: string; bytes: number }[],
  now: Date,
): Promise<void> {
  // A few thousand days at most (RECONCILIATION_MAX_LINES): chunks keep each statement's parameters bounded.
  for (let i = 0; i < days.length; i += 1000) {
    await db
      .insert(poolReconciliation)
      .values(days.slice(i, i + 1000).map((d) => ({ poolId, day: d.day, providerBytes: d.bytes, importedAt: now })))
      .onConflictDoUpdate({
        target: [poolReconciliation.poolId, poolReconciliation.day],
        set: { providerBytes: sql`excluded.provider_bytes`, importedAt: sql`excluded.imported_at` },
      });
  }
}
