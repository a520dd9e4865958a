import { eq } from 'drizzle-orm';
import { gatewayState, type TDb } from '@proxy/db';

/** The version row gateways poll. */
export async function readVersion(db: TDb): Promise<number> {
  const [row] = await db.select({ version: gatewayState.version }).from(gatewayState).where(eq(gatewayState.id, 1));
  return row?.version ?? 0;
}
