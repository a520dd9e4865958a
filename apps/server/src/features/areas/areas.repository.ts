import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import { poolHealth, pools, type TDbOrTx } from '@proxy/db';
import type { TPoolArea } from '@proxy/contract';
import type { TExitKind } from '../inventory/inventory.repository';

/** What the area lists read of an enabled pool: which areas it serves. */
export type TServingPool = { id: number; coverageMode: 'all' | 'list'; coverage: TPoolArea[] };

/** One gateway process's latest circuit state of a pool. */
export type TPoolCircuitRow = { poolId: number; circuitOpenUntil: Date | null; openAreas: string[] };

/** Enabled pools of a kind (paused ones serve nobody), by id. */
export async function findEnabledPools(db: TDbOrTx, kind: TExitKind): Promise<TServingPool[]> {
  return db
    .select({ id: pools.id, coverageMode: pools.coverageMode, coverage: pools.coverage })
    .from(pools)
    .where(and(eq(pools.kind, kind), eq(pools.status, 'enabled')))
    .orderBy(asc(pools.id));
}

/** The gateways' reports on these pools made at or after `since` (older ones say nothing about now). */
export async function findPoolCircuits(db: TDbOrTx, poolIds: number[], since: Date): Promise<TPoolCircuitRow[]> {
  if (poolIds.length === 0) return [];
  return db
    .select({
      poolId: poolHealth.poolId,
      circuitOpenUntil: poolHealth.circuitOpenUntil,
      openAreas: poolHealth.openAreas,
    })
    .from(poolHealth)
    .where(and(inArray(poolHealth.poolId, poolIds), gte(poolHealth.reportedAt, since)));
}
