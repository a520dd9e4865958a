import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import { exitNodes, gatewayState, ipListEntries, proxyTokens, tokenUsage, users, type TDb, type TDbOrTx } from '@proxy/db';

/**
 * The gateway's only database access: loading its in-memory copy, writing
 * usage in batches and leasing traffic allowance. Never on the hot path.
 */

/** A token as the gateway keeps it. */
export type TTokenRow = {
  id: number;
  /** The owner's account: a disabled account's proxies carry nothing. */
  ownerStatus: 'active' | 'disabled';
  userId: number;
  product: 'static' | 'dynamic';
  category: 'isp' | 'idc';
  billing: 'traffic' | 'ip';
  network: 'HTTP' | 'SOCKS5';
  country: string;
  state: string;
  city: string;
  username: string;
  password: string;
  status: 'enabled' | 'disabled' | 'expired' | 'invalid';
  deletedAt: Date | null;
  expiresAt: Date;
  exitNodeId: number | null;
  trafficLimitBytes: number | null;
  trafficUsedBytes: number;
  trafficLeasedBytes: number;
  updatedAt: Date;
};

/** An exit node as the gateway keeps it. */
export type TExitNodeRow = typeof exitNodes.$inferSelect;

/** An IP list entry as the gateway keeps it. */
export type TIpEntryRow = { userId: number; list: 'whitelist' | 'blacklist'; family: number; startHex: string; endHex: string };

const tokenColumns = {
  id: proxyTokens.id,
  ownerStatus: users.status,
  userId: proxyTokens.userId,
  product: proxyTokens.product,
  category: proxyTokens.category,
  billing: proxyTokens.billing,
  network: proxyTokens.network,
  country: proxyTokens.country,
  state: proxyTokens.state,
  city: proxyTokens.city,
  username: proxyTokens.username,
  password: proxyTokens.password,
  status: proxyTokens.status,
  deletedAt: proxyTokens.deletedAt,
  expiresAt: proxyTokens.expiresAt,
  exitNodeId: proxyTokens.exitNodeId,
  trafficLimitBytes: proxyTokens.trafficLimitBytes,
  trafficUsedBytes: proxyTokens.trafficUsedBytes,
  trafficLeasedBytes: proxyTokens.trafficLeasedBytes,
  updatedAt: proxyTokens.updatedAt,
};

/** The version row gateways poll. */
export async function readVersion(db: TDb): Promise<number> {
  const [row] = await db.select({ version: gatewayState.version }).from(gatewayState).where(eq(gatewayState.id, 1));
  return row?.version ?? 0;
}

/** Tokens changed after `since` (all when null). */
export async function loadTokensChangedSince(db: TDb, since: Date | null): Promise<TTokenRow[]> {
  const query = db.select(tokenColumns).from(proxyTokens).innerJoin(users, eq(users.id, proxyTokens.userId));
  return (since ? await query.where(gt(proxyTokens.updatedAt, since)) : await query) as TTokenRow[];
}

/** A page of every token by id (the cold load reads the table in pages, never all rows at once). */
export async function loadTokensAfter(db: TDbOrTx, afterId: number, limit: number): Promise<TTokenRow[]> {
  return (await db
    .select(tokenColumns)
    .from(proxyTokens)
    .innerJoin(users, eq(users.id, proxyTokens.userId))
    .where(gt(proxyTokens.id, afterId))
    .orderBy(asc(proxyTokens.id))
    .limit(limit)) as TTokenRow[];
}

/** The tokens with these usernames (a gateway looks up credentials it does not know yet). */
export async function loadTokensByUsername(db: TDb, usernames: string[]): Promise<TTokenRow[]> {
  if (usernames.length === 0) return [];
  return (await db
    .select(tokenColumns)
    .from(proxyTokens)
    .innerJoin(users, eq(users.id, proxyTokens.userId))
    .where(inArray(proxyTokens.username, usernames))) as TTokenRow[];
}

/** The IP list entries of these users. */
export async function loadIpEntriesOfUsers(db: TDb, userIds: number[]): Promise<TIpEntryRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: ipListEntries.userId,
      list: ipListEntries.list,
      family: ipListEntries.family,
      startHex: ipListEntries.startHex,
      endHex: ipListEntries.endHex,
    })
    .from(ipListEntries)
    .where(inArray(ipListEntries.userId, userIds));
}

/** The whole inventory (small). */
export async function loadExitNodes(db: TDb): Promise<TExitNodeRow[]> {
  return db.select().from(exitNodes);
}

/** Every IP list entry (capped per user). */
export async function loadIpEntries(db: TDb): Promise<TIpEntryRow[]> {
  return db
    .select({
      userId: ipListEntries.userId,
      list: ipListEntries.list,
      family: ipListEntries.family,
      startHex: ipListEntries.startHex,
      endHex: ipListEntries.endHex,
    })
    .from(ipListEntries);
}

/** Writes metered bytes: hourly buckets and the tokens' used counters, in one short transaction. */
export async function writeUsage(db: TDb, rows: { tokenId: number; userId: number; bytes: number }[], bucket: Date): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(tokenUsage)
      .values(rows.map((r) => ({ tokenId: r.tokenId, userId: r.userId, bucket, bytes: r.bytes })))
      .onConflictDoUpdate({ target: [tokenUsage.tokenId, tokenUsage.bucket], set: { bytes: sql`${tokenUsage.bytes} + excluded.bytes` } });
    for (const r of rows) {
      await tx
        .update(proxyTokens)
        .set({ trafficUsedBytes: sql`${proxyTokens.trafficUsedBytes} + ${r.bytes}` })
        .where(eq(proxyTokens.id, r.tokenId));
    }
  });
}

/**
 * Claims up to `slice` bytes of a traffic token's allowance for this gateway.
 * Answers the bytes granted (0 when the allowance is all handed out).
 */
export async function claimLease(db: TDb, tokenId: number, slice: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ limit: proxyTokens.trafficLimitBytes, leased: proxyTokens.trafficLeasedBytes, used: proxyTokens.trafficUsedBytes })
      .from(proxyTokens)
      .where(and(eq(proxyTokens.id, tokenId), isNotNull(proxyTokens.trafficLimitBytes)))
      .for('update');
    if (!row || row.limit === null) return 0;
    // Leases never exceed the limit; bytes already used (e.g. by a gateway that stopped uncleanly) count too.
    const floor = Math.max(row.leased, row.used);
    const granted = Math.max(0, Math.min(slice, row.limit - floor));
    if (granted === 0) return 0;
    await tx
      .update(proxyTokens)
      .set({ trafficLeasedBytes: floor + granted })
      .where(eq(proxyTokens.id, tokenId));
    return granted;
  });
}

/** Gives back the unspent part of a lease (clean shutdown, idle token). */
export async function returnLease(db: TDb, tokenId: number, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await db
    .update(proxyTokens)
    .set({ trafficLeasedBytes: sql`GREATEST(${proxyTokens.trafficUsedBytes}, ${proxyTokens.trafficLeasedBytes} - ${bytes})` })
    .where(eq(proxyTokens.id, tokenId));
}
