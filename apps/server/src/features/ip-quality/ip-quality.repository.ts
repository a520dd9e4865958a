import { and, eq, inArray, sql } from 'drizzle-orm';
import { exitNodes, ipListEntries, type TDbOrTx } from '@proxy/db';

/** True when any exit node (active or not) leaves from one of these address texts. */
export async function hasExitWithIp(db: TDbOrTx, addressTexts: string[]): Promise<boolean> {
  if (addressTexts.length === 0) return false;
  const rows = await db
    .select({ id: exitNodes.id })
    .from(exitNodes)
    .where(inArray(exitNodes.exitIp, addressTexts))
    .limit(1);
  return rows.length > 0;
}

/**
 * The user's blacklist entries whose range contains the address, given as
 * 32-digit hex (the stored form). "C" collation makes text order byte order,
 * which for equal-width lower-case hex is numeric order whatever the
 * database's default collation.
 */
export async function findBlacklistEntriesContaining(
  db: TDbOrTx,
  userId: number,
  family: 4 | 6,
  addressHex: string,
): Promise<string[]> {
  const rows = await db
    .select({ entry: ipListEntries.entry })
    .from(ipListEntries)
    .where(
      and(
        eq(ipListEntries.userId, userId),
        eq(ipListEntries.list, 'blacklist'),
        eq(ipListEntries.family, family),
        sql`${ipListEntries.startHex} COLLATE "C" <= ${addressHex}`,
        sql`${ipListEntries.endHex} COLLATE "C" >= ${addressHex}`,
      ),
    )
    .orderBy(ipListEntries.id);
  return rows.map((r) => r.entry);
}
