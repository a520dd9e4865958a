import { and, count, eq, gt, isNull, type SQL } from 'drizzle-orm';
import { exitNodes, proxyTokens, users, type TDbOrTx } from '@proxy/db';
import type { TProxyNetwork } from '@proxy/contract';
import type { TTokenRow } from '../proxies/proxies.repository';
import { newestOfUser, ofUser, oldestOfUser } from '../../lib/user-rows.repository';

/** Filters of the customer API's proxy list (undefined = any). */
export type TV1TokenFilters = {
  network?: TProxyNetwork;
  country?: string;
  state?: string;
  city?: string;
  /** Exit address of the pinned exit node. */
  exitIp?: string;
  /** Only tokens that can carry traffic now (enabled, not expired). */
  isUsableOnly?: boolean;
  now?: Date;
};

function whereOf(userId: number, filters: TV1TokenFilters): SQL {
  const t = proxyTokens;
  const parts: SQL[] = [ofUser(t.userId, userId), isNull(t.deletedAt)];
  if (filters.network) parts.push(eq(t.network, filters.network));
  if (filters.country) parts.push(eq(t.country, filters.country));
  if (filters.state) parts.push(eq(t.state, filters.state));
  if (filters.city) parts.push(eq(t.city, filters.city));
  if (filters.exitIp) parts.push(eq(exitNodes.exitIp, filters.exitIp));
  if (filters.isUsableOnly) {
    parts.push(eq(t.status, 'enabled'));
    if (filters.now) parts.push(gt(t.expiresAt, filters.now));
  }
  return and(...parts)!;
}

/** One page of a user's (not deleted) tokens matching the filters, newest first, with the total. */
export async function listV1TokensPage(
  db: TDbOrTx,
  userId: number,
  filters: TV1TokenFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: TTokenRow[]; total: number }> {
  const where = whereOf(userId, filters);
  const rows = await db
    .select({ token: proxyTokens })
    .from(proxyTokens)
    .leftJoin(exitNodes, eq(exitNodes.id, proxyTokens.exitNodeId))
    .where(where)
    .orderBy(...newestOfUser(proxyTokens.userId, proxyTokens.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(proxyTokens)
    .leftJoin(exitNodes, eq(exitNodes.id, proxyTokens.exitNodeId))
    .where(where);
  return { rows: rows.map((r) => r.token), total: Number(total) };
}

/** A user's usable tokens matching the filters, oldest first, at most `limit`. */
export async function listUsableTokens(
  db: TDbOrTx,
  userId: number,
  filters: TV1TokenFilters,
  limit: number,
): Promise<TTokenRow[]> {
  const rows = await db
    .select({ token: proxyTokens })
    .from(proxyTokens)
    .leftJoin(exitNodes, eq(exitNodes.id, proxyTokens.exitNodeId))
    .where(whereOf(userId, { ...filters, isUsableOnly: true }))
    .orderBy(...oldestOfUser(proxyTokens.userId, proxyTokens.id))
    .limit(limit);
  return rows.map((r) => r.token);
}

/** Replaces a user's personal API key. */
export async function updateApiKey(db: TDbOrTx, userId: number, apiKey: string): Promise<void> {
  await db.update(users).set({ apiKey }).where(eq(users.id, userId));
}
