import { randomUUID } from 'node:crypto';
import { gatewayInstances, poolHealth, pools, type TDbOrTx } from '@proxy/db';
import type { TPoolArea } from '@proxy/contract';

/** Test support for the suites of pool-served areas: pools as the operator leaves them, gateways' reports on them. */

/** What a test pool differs in: kind, status, and a coverage list (none: every country). */
export type TTestPool = { kind?: 'residential' | 'datacenter'; status?: 'enabled' | 'paused'; coverage?: TPoolArea[] };

/** Inserts a pool (enabled, residential, serving every country unless told); answers its id. */
export async function addTestPool(db: TDbOrTx, name: string, over: TTestPool = {}): Promise<number> {
  const [row] = await db
    .insert(pools)
    .values({
      name,
      kind: over.kind ?? 'residential',
      protocol: 'http-connect',
      endpoints: [{ host: '127.0.0.1', port: 1 }],
      username: 'acme',
      // Never opened by the area lists or a purchase.
      password: 'sealed-elsewhere',
      usernameTemplate: 'user-{user}-cc-{country}[-st-{state}][-city-{city}]',
      coverageMode: over.coverage ? 'list' : 'all',
      coverage: over.coverage ?? [],
      status: over.status ?? 'enabled',
    })
    .returning({ id: pools.id });
  return row.id;
}

/** One gateway process's report on a pool, as the gateway writes it: its circuit and open areas, `ageMs` before `now`. */
export async function reportPoolHealth(
  db: TDbOrTx,
  poolId: number,
  now: Date,
  state: {
    openUntil?: Date | null;
    openAreas?: string[];
    ageMs?: number;
    figures?: {
      attempts: number;
      successes: number;
      connectMsTotal: number;
      refusals: Record<string, number>;
      open: number;
    };
  } = {},
): Promise<void> {
  const instanceId = randomUUID();
  await db.insert(gatewayInstances).values({ id: instanceId, label: `gw-${instanceId.slice(0, 8)}` });
  await db.insert(poolHealth).values({
    instanceId,
    poolId,
    circuitOpenUntil: state.openUntil ?? null,
    openAreas: state.openAreas ?? [],
    ...state.figures,
    reportedAt: new Date(now.getTime() - (state.ageMs ?? 1_000)),
  });
}
