import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { proxyOrders, proxyTokens, type TDbOrTx } from '@proxy/db';
import type { TProxyList, TProxyListQuery } from '@proxy/contract';
import { countInPage, newestOfUser, ofUser, oldestOfUser, totalOfPage } from '../../lib/user-rows.repository';

/** A token row. */
export type TTokenRow = typeof proxyTokens.$inferSelect;
/** What a new token needs. */
export type TNewToken = typeof proxyTokens.$inferInsert;
/** Columns a service may change on a token. */
export type TTokenPatch = Partial<
  Pick<
    TTokenRow,
    | 'status'
    | 'deletedAt'
    | 'autoRenew'
    | 'remark'
    | 'password'
    | 'expiresAt'
    | 'exitNodeId'
    | 'autoRenewFailedFor'
    | 'trafficLimitBytes'
  >
>;
/** An order row. */
export type TOrderRow = typeof proxyOrders.$inferSelect;
/** What a new order needs. */
export type TNewOrder = typeof proxyOrders.$inferInsert;

/** Which tokens belong to each of the seven lists (ARCHITECTURE.md, Proxies). */
export function listMembership(list: TProxyList): SQL {
  const t = proxyTokens;
  switch (list) {
    case 'static/traffic':
      return and(eq(t.product, 'static'), eq(t.category, 'isp'), eq(t.billing, 'traffic'))!;
    case 'static/ip':
      return and(eq(t.product, 'static'), eq(t.category, 'isp'), eq(t.billing, 'ip'))!;
    case 'variable/traffic':
      return and(eq(t.product, 'dynamic'), eq(t.category, 'isp'), eq(t.billing, 'traffic'))!;
    case 'variable/ip':
      return and(eq(t.product, 'dynamic'), eq(t.category, 'isp'), eq(t.billing, 'ip'))!;
    case 'isp/static':
      return and(eq(t.product, 'static'), eq(t.category, 'isp'))!;
    case 'isp/dynamic':
      return and(eq(t.product, 'dynamic'), eq(t.category, 'isp'))!;
    case 'idc/static':
      return eq(t.category, 'idc');
  }
}

/** The list filters as a WHERE clause (deleted tokens only with status=deleted). */
export type TTokenFilters = Omit<TProxyListQuery, 'page' | 'page_size'> & { list?: TProxyList };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// The filters' values by name, as the prepared statements of filterWhere take them.
function filterValues(userId: number, filters: TTokenFilters): Record<string, unknown> {
  return {
    userId,
    status: filters.status,
    country: filters.country,
    pattern: filters.keyword ? `%${escapeLike(filters.keyword)}%` : undefined,
    createdFrom: filters.created_from,
    createdTo: filters.created_to,
    expiresFrom: filters.expires_from,
    expiresTo: filters.expires_to,
  };
}

/** The WHERE of the filters given (the values as placeholders of filterValues, or the values themselves). */
function filterWhere(userId: number | Placeholder, filters: TTokenFilters, isPrepared = false): SQL {
  const t = proxyTokens;
  const v = <T>(name: string, value: T): T | Placeholder => (isPrepared ? sql.placeholder(name) : value);
  const parts: SQL[] = [ofUser(t.userId, userId)];
  if (filters.list) parts.push(listMembership(filters.list));
  if (filters.status === 'deleted') parts.push(isNotNull(t.deletedAt));
  else {
    parts.push(isNull(t.deletedAt));
    if (filters.status) parts.push(eq(t.status, v('status', filters.status)));
  }
  if (filters.country) parts.push(eq(t.country, v('country', filters.country)));
  if (filters.keyword) {
    const pattern = v('pattern', `%${escapeLike(filters.keyword)}%`);
    parts.push(or(ilike(t.remark, pattern), ilike(t.username, pattern))!);
  }
  if (filters.created_from) parts.push(gte(t.createdAt, v('createdFrom', filters.created_from)));
  if (filters.created_to) parts.push(lte(t.createdAt, v('createdTo', filters.created_to)));
  if (filters.expires_from) parts.push(gte(t.expiresAt, v('expiresFrom', filters.expires_from)));
  if (filters.expires_to) parts.push(lte(t.expiresAt, v('expiresTo', filters.expires_to)));
  return and(...parts)!;
}

// Which filters are given (their values aside): one prepared statement serves every page view of that shape.
function filterShape(filters: TTokenFilters): string {
  const status = filters.status === 'deleted' ? 'deleted' : filters.status ? 'status' : 'live';
  const given = (['country', 'keyword', 'created_from', 'created_to', 'expires_from', 'expires_to'] as const).map(
    (k) => (filters[k] ? '1' : '0'),
  );
  return `${filters.list ?? 'all'}_${status}_${given.join('')}`.replace(/\//g, '_');
}

function preparePage(db: TDbOrTx, filters: TTokenFilters, shape: string) {
  const where = filterWhere(sql.placeholder('userId'), filters, true);
  return db
    .select({ ...getTableColumns(proxyTokens), pageTotal: countInPage(proxyTokens, where) })
    .from(proxyTokens)
    .where(where)
    .orderBy(...newestOfUser(proxyTokens.userId, proxyTokens.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(`tokens_page_${shape}`);
}

function prepareCount(db: TDbOrTx, filters: TTokenFilters, shape: string) {
  return db
    .select({ total: count() })
    .from(proxyTokens)
    .where(filterWhere(sql.placeholder('userId'), filters, true))
    .prepare(`tokens_count_${shape}`);
}

/**
 * The statements of the lists, built once per database and filter shape: a page view
 * neither builds its SQL again nor has PostgreSQL parse it again (named statements).
 */
const preparedLists = new WeakMap<
  TDbOrTx,
  Map<string, { page: ReturnType<typeof preparePage>; count: ReturnType<typeof prepareCount> }>
>();
function listStatements(db: TDbOrTx, filters: TTokenFilters) {
  let byShape = preparedLists.get(db);
  if (!byShape) preparedLists.set(db, (byShape = new Map()));
  const shape = filterShape(filters);
  let statements = byShape.get(shape);
  if (!statements)
    byShape.set(
      shape,
      (statements = { page: preparePage(db, filters, shape), count: prepareCount(db, filters, shape) }),
    );
  return statements;
}

/** One page of a user's tokens matching the filters, newest first, with the total. */
export async function listTokensPage(
  db: TDbOrTx,
  userId: number,
  filters: TTokenFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: TTokenRow[]; total: number }> {
  const statements = listStatements(db, filters);
  const values = filterValues(userId, filters);
  const rows = await statements.page.execute({ ...values, limit: page.limit, offset: page.offset });
  const total = await totalOfPage(page, rows, async () => Number((await statements.count.execute(values))[0].total));
  return { rows, total };
}

/** Every token of a user matching the filters (export), oldest first. */
export async function listTokensMatching(
  db: TDbOrTx,
  userId: number,
  filters: TTokenFilters,
  limit: number,
): Promise<TTokenRow[]> {
  return db
    .select()
    .from(proxyTokens)
    .where(filterWhere(userId, filters))
    .orderBy(...oldestOfUser(proxyTokens.userId, proxyTokens.id))
    .limit(limit);
}

/** The user's tokens among ids (deleted ones included), by id. */
export async function findUserTokens(db: TDbOrTx, userId: number, ids: number[]): Promise<TTokenRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(proxyTokens)
    .where(and(eq(proxyTokens.userId, userId), inArray(proxyTokens.id, ids)))
    .orderBy(asc(proxyTokens.id));
}

/** Locks the user's tokens among ids (in id order, so concurrent calls never deadlock). */
export async function lockUserTokens(tx: TDbOrTx, userId: number, ids: number[]): Promise<TTokenRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(proxyTokens)
    .where(and(eq(proxyTokens.userId, userId), inArray(proxyTokens.id, ids)))
    .orderBy(asc(proxyTokens.id))
    .for('update');
}

/** Adds tokens. */
export async function insertTokens(tx: TDbOrTx, rows: TNewToken[]): Promise<TTokenRow[]> {
  return tx.insert(proxyTokens).values(rows).returning();
}

/** Changes one token; answers the new row. */
export async function updateToken(tx: TDbOrTx, id: number, patch: TTokenPatch): Promise<TTokenRow> {
  const [row] = await tx.update(proxyTokens).set(patch).where(eq(proxyTokens.id, id)).returning();
  return row;
}

/** The tokens of an order, in creation order. */
export async function findOrderTokens(db: TDbOrTx, userId: number, orderId: number): Promise<TTokenRow[]> {
  return db
    .select()
    .from(proxyTokens)
    .where(and(eq(proxyTokens.userId, userId), eq(proxyTokens.orderId, orderId)))
    .orderBy(asc(proxyTokens.id));
}

/** Adds an order. */
export async function insertOrder(tx: TDbOrTx, row: TNewOrder): Promise<TOrderRow> {
  const [inserted] = await tx.insert(proxyOrders).values(row).returning();
  return inserted;
}

/** The user's order made with an idempotency key. */
export async function findOrderByKey(db: TDbOrTx, userId: number, key: string): Promise<TOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(proxyOrders)
    .where(and(eq(proxyOrders.userId, userId), eq(proxyOrders.idempotencyKey, key)))
    .limit(1);
  return row;
}

const isLive = inArray(proxyTokens.status, ['enabled', 'disabled']);

/** Locks the next live token past its expiry (SKIP LOCKED: another instance takes the next one). */
export async function lockNextExpiredToken(tx: TDbOrTx, now: Date): Promise<TTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(proxyTokens)
    .where(and(isLive, lte(proxyTokens.expiresAt, now)))
    .orderBy(asc(proxyTokens.expiresAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** Locks the next live traffic token whose usage reached its allowance. */
export async function lockNextExhaustedToken(tx: TDbOrTx): Promise<TTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(proxyTokens)
    .where(
      and(
        isLive,
        eq(proxyTokens.billing, 'traffic'),
        isNotNull(proxyTokens.trafficLimitBytes),
        gte(proxyTokens.trafficUsedBytes, proxyTokens.trafficLimitBytes),
      ),
    )
    .orderBy(asc(proxyTokens.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/**
 * Locks the next live IP token with auto-renew on whose expiry is before
 * `until` and whose renewal was not already refused for this expiry.
 */
export async function lockNextAutoRenewToken(tx: TDbOrTx, until: Date): Promise<TTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(proxyTokens)
    .where(
      and(
        isLive,
        eq(proxyTokens.billing, 'ip'),
        eq(proxyTokens.autoRenew, true),
        isNull(proxyTokens.deletedAt),
        lte(proxyTokens.expiresAt, until),
        or(isNull(proxyTokens.autoRenewFailedFor), ne(proxyTokens.autoRenewFailedFor, proxyTokens.expiresAt)),
      ),
    )
    .orderBy(asc(proxyTokens.expiresAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** Adds metered bytes to a token (tests and the gateway's flush use the same column). */
export async function addTokenUsage(db: TDbOrTx, id: number, bytes: number): Promise<void> {
  await db
    .update(proxyTokens)
    .set({ trafficUsedBytes: sql`${proxyTokens.trafficUsedBytes} + ${bytes}` })
    .where(eq(proxyTokens.id, id));
}

/** Marks every token of the user changed, so gateways reload them (the owner's account was enabled or disabled). */
export async function touchUserTokens(tx: TDbOrTx, userId: number): Promise<void> {
  await tx
    .update(proxyTokens)
    .set({ updatedAt: sql`now()` })
    .where(eq(proxyTokens.userId, userId));
}
