import { eq, sql } from 'drizzle-orm';
import { gatewayState, type TDbOrTx } from '@proxy/db';

/**
 * Tells every gateway to reload: call it in the same transaction as any change
 * to tokens or IP lists (ARCHITECTURE.md, Proxies: changes apply within 5 s).
 */
export async function bumpGatewayVersion(db: TDbOrTx): Promise<void> {
  await db
    .update(gatewayState)
    .set({ version: sql`${gatewayState.version} + 1`, updatedAt: sql`now()` })
    .where(eq(gatewayState.id, 1));
}

/** Current version (gateways poll it). */
export async function readGatewayVersion(db: TDbOrTx): Promise<number> {
  const [row] = await db.select({ version: gatewayState.version }).from(gatewayState).where(eq(gatewayState.id, 1));
  return row?.version ?? 0;
}
