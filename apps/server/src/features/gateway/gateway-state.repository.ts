import { eq, sql } from 'drizzle-orm';
import { GATEWAY_CHANGES_CHANNEL, gatewayState, type TDbOrTx } from '@proxy/db';

/**
 * Tells every gateway to reload: call it in the same transaction as any change
 * to tokens or IP lists. The NOTIFY is delivered when the transaction commits;
 * gateways also poll the version, in case a notification was lost.
 */
export async function bumpGatewayVersion(db: TDbOrTx): Promise<void> {
  const [row] = await db
    .update(gatewayState)
    .set({ version: sql`${gatewayState.version} + 1`, updatedAt: sql`now()` })
    .where(eq(gatewayState.id, 1))
    .returning({ version: gatewayState.version });
  await db.execute(sql`SELECT pg_notify(${GATEWAY_CHANGES_CHANNEL}, ${String(row?.version ?? 0)})`);
}

/** Current version (gateways poll it). */
export async function readGatewayVersion(db: TDbOrTx): Promise<number> {
  const [row] = await db.select({ version: gatewayState.version }).from(gatewayState).where(eq(gatewayState.id, 1));
  return row?.version ?? 0;
}
