import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '@proxy/db';

/** A round trip to the database (health check). */
export async function pingDatabase(db: TDbOrTx): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
