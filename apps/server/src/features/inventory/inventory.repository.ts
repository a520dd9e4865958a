import { and, asc, count, eq, gt, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { exitNodes, proxyTokens, type EXIT_HEALTHS, type EXIT_KINDS, type TDbOrTx } from '@proxy/db';
import type { TInventoryNodeQuery } from '@proxy/contract';

/** An exit node row. */
export type TExitNodeRow = typeof exitNodes.$inferSelect;
/** What a new exit node needs. */
export type TNewExitNode = typeof exitNodes.$inferInsert;
/** Residential or data-center. */
export type TExitKind = (typeof EXIT_KINDS)[number];
/** An area filter: country required, state and city when given (non-empty). */
export type TAreaFilter = { kind: TExitKind; country: string; state?: string; city?: string };

function areaWhere(area: TAreaFilter): SQL {
  const parts: SQL[] = [
    eq(exitNodes.kind, area.kind),
    eq(exitNodes.country, area.country),
    eq(exitNodes.status, 'active'),
  ];
  if (area.state) parts.push(eq(exitNodes.state, area.state));
  if (area.city) parts.push(eq(exitNodes.city, area.city));
  return and(...parts)!;
}

// Shared direct nodes are always available; an upstream node is available while nobody holds it and the probe has not found it dead.
const isAvailable = or(
  eq(exitNodes.egress, 'direct'),
  and(isNull(exitNodes.holderTokenId), ne(exitNodes.health, 'down')),
)!;

/** Inserts nodes, skipping duplicates of existing ones (same endpoint and area); answers the inserted rows. */
export async function insertExitNodes(db: TDbOrTx, rows: TNewExitNode[]): Promise<TExitNodeRow[]> {
  if (rows.length === 0) return [];
  return db.insert(exitNodes).values(rows).onConflictDoNothing().returning();
}

/** The direct node of a kind, if seeded. */
export async function findDirectNode(db: TDbOrTx, kind: TExitKind): Promise<TExitNodeRow | undefined> {
  const [row] = await db
    .select()
    .from(exitNodes)
    .where(and(eq(exitNodes.kind, kind), eq(exitNodes.egress, 'direct')))
    .orderBy(asc(exitNodes.id))
    .limit(1);
  return row;
}

/** Moves a direct node to another area (the gateway host's area changed in the configuration). */
export async function relabelExitNode(
  db: TDbOrTx,
  id: number,
  area: { country: string; state: string; city: string },
): Promise<void> {
  await db.update(exitNodes).set(area).where(eq(exitNodes.id, id));
}

/**
 * Locks up to `limit` free upstream nodes of an area that the probe has not
 * found dead (FOR UPDATE SKIP LOCKED: concurrent purchases never get the same
 * node); the caller claims them.
 */
export async function lockFreeUpstreamNodes(tx: TDbOrTx, area: TAreaFilter, limit: number): Promise<TExitNodeRow[]> {
  if (limit <= 0) return [];
  return tx
    .select()
    .from(exitNodes)
    .where(
      and(
        areaWhere(area),
        ne(exitNodes.egress, 'direct'),
        isNull(exitNodes.holderTokenId),
        ne(exitNodes.health, 'down'),
      ),
    )
    .orderBy(asc(exitNodes.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The shared direct node of an area, if any. */
export async function findDirectNodeInArea(db: TDbOrTx, area: TAreaFilter): Promise<TExitNodeRow | undefined> {
  const [row] = await db
    .select()
    .from(exitNodes)
    .where(and(areaWhere(area), eq(exitNodes.egress, 'direct')))
    .orderBy(asc(exitNodes.id))
    .limit(1);
  return row;
}

/** Active nodes of an area (any egress, held or not): what a dynamic token rotates among. */
export async function countNodesInArea(db: TDbOrTx, area: TAreaFilter): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(exitNodes).where(areaWhere(area));
  return Number(n);
}

/** Marks a node held by a static-IP token. */
export async function setNodeHolder(db: TDbOrTx, nodeId: number, tokenId: number): Promise<void> {
  await db
    .update(exitNodes)
    .set({ holderTokenId: tokenId })
    .where(and(eq(exitNodes.id, nodeId), isNull(exitNodes.holderTokenId)));
}

/** Gives an upstream node back to the pool; answers whether the token held it. */
export async function releaseNode(db: TDbOrTx, nodeId: number, tokenId: number): Promise<boolean> {
  const rows = await db
    .update(exitNodes)
    .set({ holderTokenId: null })
    .where(and(eq(exitNodes.id, nodeId), eq(exitNodes.holderTokenId, tokenId)))
    .returning({ id: exitNodes.id });
  return rows.length > 0;
}

/** Nodes by id. */
export async function findExitNodes(db: TDbOrTx, ids: number[]): Promise<TExitNodeRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(exitNodes).where(inArray(exitNodes.id, ids));
}

/** One area level with inventory and its available count. */
export type TAreaCount = {
  code: string;
  /** Name captured at import ('' when none). */ name: string;
  available: number;
};

/** Counts of one group of nodes (an area level, or a whole area and kind). */
export type TStockCounts = {
  kind: TExitKind;
  country: string;
  state: string;
  city: string;
  stateName: string;
  cityName: string;
  active: number;
  disabled: number;
  up: number;
  down: number;
  held: number;
  /** What a static IP purchase can take: active shared direct nodes plus active free upstream nodes. */
  staticAvailable: number;
  /** Active nodes not marked down: what dynamic tokens rotate among. */
  dynamicAvailable: number;
};

/** What stock to count and how to group it: by one area level under a parent (the area lists), or by whole area and kind (operators). */
export type TStockGrouping = {
  kind?: TExitKind;
  country?: string;
  state?: string;
  level: 'country' | 'state' | 'city' | 'area';
  activeOnly?: boolean;
};

const isActive = eq(exitNodes.status, 'active');
const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/**
 * The one stock query: node counts grouped by an area level (countries,
 * states of a country, cities of a state) or by whole area and kind. The
 * area lists that the purchase form and the supply form read and the
 * operators' stock card both count through it.
 */
export async function countStock(db: TDbOrTx, grouping: TStockGrouping): Promise<TStockCounts[]> {
  const parts: SQL[] = [];
  if (grouping.kind) parts.push(eq(exitNodes.kind, grouping.kind));
  if (grouping.country !== undefined) parts.push(eq(exitNodes.country, grouping.country));
  if (grouping.state !== undefined) parts.push(eq(exitNodes.state, grouping.state));
  if (grouping.activeOnly) parts.push(isActive);
  const level = grouping.level;
  // Columns not grouped by answer '' (a country row has no state).
  const blank = sql<string>`''`;
  const kind = level === 'area' ? exitNodes.kind : sql<TExitKind>`min(${exitNodes.kind})`;
  const country = level === 'area' || level === 'country' ? exitNodes.country : blank;
  const state = level === 'area' || level === 'state' ? exitNodes.state : blank;
  const city = level === 'area' || level === 'city' ? exitNodes.city : blank;
  const groups =
    level === 'area'
      ? [exitNodes.kind, exitNodes.country, exitNodes.state, exitNodes.city]
      : [level === 'country' ? exitNodes.country : level === 'state' ? exitNodes.state : exitNodes.city];
  const rows = await db
    .select({
      kind,
      country,
      state,
      city,
      // A display name captured at import ("Los Angeles"); '' for unnamed areas.
      stateName: level === 'area' || level === 'state' ? sql<string>`coalesce(max(${exitNodes.stateName}), '')` : blank,
      cityName: level === 'area' || level === 'city' ? sql<string>`coalesce(max(${exitNodes.cityName}), '')` : blank,
      active: countWhere(isActive),
      disabled: countWhere(ne(exitNodes.status, 'active')),
      up: countWhere(and(isActive, eq(exitNodes.health, 'up'))!),
      down: countWhere(and(isActive, eq(exitNodes.health, 'down'))!),
      held: countWhere(isNotNull(exitNodes.holderTokenId)),
      staticAvailable: countWhere(and(isActive, isAvailable)!),
      dynamicAvailable: countWhere(and(isActive, ne(exitNodes.health, 'down'))!),
    })
    .from(exitNodes)
    .where(parts.length ? and(...parts) : undefined)
    .groupBy(...groups)
    .orderBy(...groups.map((g) => asc(g)));
  return rows.map((r) => ({ ...r, stateName: r.stateName ?? '', cityName: r.cityName ?? '' }));
}

/**
 * Areas with active inventory of a kind: countries (no country given), states
 * of a country, or cities of a state; available = shared direct nodes plus
 * free upstream nodes.
 */
export async function countAreas(
  db: TDbOrTx,
  kind: TExitKind,
  parent: { country?: string; state?: string },
): Promise<TAreaCount[]> {
  const level = parent.country === undefined ? 'country' : parent.state === undefined ? 'state' : 'city';
  const rows = await countStock(db, { kind, ...parent, level, activeOnly: true });
  return rows.map((r) => ({
    code: level === 'country' ? r.country : level === 'state' ? r.state : r.city,
    name: level === 'country' ? '' : level === 'state' ? r.stateName : r.cityName,
    available: r.staticAvailable,
  }));
}

/** Live tokens (not deleted, not expired) pinned to a node: as its holder or by their exit node. */
function pinnedTo(nodeId: SQL | number, holder: SQL | number | null, now: Date): SQL {
  const byHolder = holder === null ? undefined : eq(proxyTokens.id, holder);
  return and(
    isNull(proxyTokens.deletedAt),
    ne(proxyTokens.status, 'expired'),
    gt(proxyTokens.expiresAt, now),
    or(eq(proxyTokens.exitNodeId, nodeId), byHolder),
  )!;
}

/** An exit node with the count of live tokens pinned to it. */
export type TListedExitNode = TExitNodeRow & { pinnedTokens: number };

function nodeFilter(query: Omit<TInventoryNodeQuery, 'page' | 'page_size'>): SQL | undefined {
  const parts: SQL[] = [];
  if (query.kind) parts.push(eq(exitNodes.kind, query.kind));
  if (query.country) parts.push(eq(exitNodes.country, query.country));
  if (query.health) parts.push(eq(exitNodes.health, query.health));
  if (query.status) parts.push(eq(exitNodes.status, query.status));
  if (query.assignment === 'held') parts.push(isNotNull(exitNodes.holderTokenId));
  if (query.assignment === 'free') parts.push(isNull(exitNodes.holderTokenId));
  if (query.keyword) {
    const pattern = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(or(ilike(exitNodes.host, pattern), ilike(exitNodes.exitIp, pattern))!);
  }
  return parts.length ? and(...parts) : undefined;
}

function pinnedCount(now: Date) {
  return sql<number>`(select count(*) from ${proxyTokens} where ${pinnedTo(sql`${exitNodes.id}`, sql`${exitNodes.holderTokenId}`, now)})`.mapWith(
    Number,
  );
}

/** Exit nodes matching the operators' filters, by id, with their pinned live tokens. */
export async function listExitNodes(
  db: TDbOrTx,
  query: TInventoryNodeQuery,
  now: Date,
): Promise<{ records: TListedExitNode[]; total: number }> {
  const where = nodeFilter(query);
  const [records, [{ total }]] = await Promise.all([
    db
      .select({ node: exitNodes, pinnedTokens: pinnedCount(now) })
      .from(exitNodes)
      .where(where)
      .orderBy(asc(exitNodes.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ total: count() }).from(exitNodes).where(where),
  ]);
  return { records: records.map((r) => ({ ...r.node, pinnedTokens: r.pinnedTokens })), total };
}

/** One node with its pinned live tokens; `lock` takes a row lock (FOR UPDATE) inside a transaction. */
export async function findListedExitNode(
  db: TDbOrTx,
  id: number,
  now: Date,
  lock = false,
): Promise<TListedExitNode | undefined> {
  if (lock) await db.select({ id: exitNodes.id }).from(exitNodes).where(eq(exitNodes.id, id)).for('update');
  const [row] = await db
    .select({ node: exitNodes, pinnedTokens: pinnedCount(now) })
    .from(exitNodes)
    .where(eq(exitNodes.id, id));
  return row ? { ...row.node, pinnedTokens: row.pinnedTokens } : undefined;
}

/** Changes a node's columns (and its updated_at). */
export async function updateExitNode(db: TDbOrTx, id: number, changes: Partial<TNewExitNode>): Promise<void> {
  await db
    .update(exitNodes)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(exitNodes.id, id));
}

/** Another node with the same endpoint and area (the import's uniqueness), if any. */
export async function findEndpointTwin(
  db: TDbOrTx,
  node: {
    id: number;
    kind: TExitKind;
    egress: TExitNodeRow['egress'];
    host: string;
    port: number;
    username: string | null;
    country: string;
    state: string;
    city: string;
  },
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: exitNodes.id })
    .from(exitNodes)
    .where(
      and(
        ne(exitNodes.id, node.id),
        eq(exitNodes.kind, node.kind),
        eq(exitNodes.egress, node.egress),
        eq(exitNodes.host, node.host),
        eq(exitNodes.port, node.port),
        sql`coalesce(${exitNodes.username}, '') = ${node.username ?? ''}`,
        eq(exitNodes.country, node.country),
        eq(exitNodes.state, node.state),
        eq(exitNodes.city, node.city),
      ),
    )
    .limit(1);
  return row?.id;
}

/**
 * Re-pins every live token of `from` to `to` and hands over the hold: the
 * caller has locked both rows and checked `to` is free. Answers the tokens moved.
 */
export async function movePinnedTokens(
  tx: TDbOrTx,
  from: TExitNodeRow,
  to: TExitNodeRow,
  now: Date,
): Promise<number[]> {
  const moved = await tx
    .update(proxyTokens)
    .set({ exitNodeId: to.id })
    .where(pinnedTo(from.id, from.holderTokenId, now))
    .returning({ id: proxyTokens.id });
  const ids = moved.map((m) => m.id);
  const holder =
    from.holderTokenId !== null && ids.includes(from.holderTokenId) ? from.holderTokenId : (ids[0] ?? null);
  await tx
    .update(exitNodes)
    .set({ holderTokenId: null, updatedAt: sql`now()` })
    .where(eq(exitNodes.id, from.id));
  if (holder !== null)
    await tx
      .update(exitNodes)
      .set({ holderTokenId: holder, updatedAt: sql`now()` })
      .where(eq(exitNodes.id, to.id));
  return ids;
}

/** Active upstream nodes (what the periodic probe checks), by id. */
export async function listProbeTargets(db: TDbOrTx): Promise<TExitNodeRow[]> {
  return db
    .select()
    .from(exitNodes)
    .where(and(isActive, ne(exitNodes.egress, 'direct')))
    .orderBy(asc(exitNodes.id));
}

/** Health of an exit as the probe found it. */
export type TExitHealth = (typeof EXIT_HEALTHS)[number];

/** Locks a node's row (FOR UPDATE) and answers it. */
export async function lockExitNode(tx: TDbOrTx, id: number): Promise<TExitNodeRow | undefined> {
  const [row] = await tx.select().from(exitNodes).where(eq(exitNodes.id, id)).for('update');
  return row;
}

/** Records what the probe found (not an operator's change: updated_at stays). */
export async function recordProbe(
  tx: TDbOrTx,
  id: number,
  found: Pick<TNewExitNode, 'health' | 'exitIp' | 'latencyMs' | 'probeFailures' | 'probeError' | 'checkedAt'>,
): Promise<void> {
  await tx.update(exitNodes).set(found).where(eq(exitNodes.id, id));
}

/** Upstream passwords stored before they were sealed (plain text), by id: what the start-up pass seals. */
export async function listPlainExitPasswords(db: TDbOrTx): Promise<{ id: number; password: string }[]> {
  const rows = await db
    .select({ id: exitNodes.id, password: exitNodes.password })
    .from(exitNodes)
    .where(
      and(isNotNull(exitNodes.password), ne(exitNodes.password, ''), sql`${exitNodes.password} NOT LIKE 'enc:v1:%'`),
    )
    .orderBy(asc(exitNodes.id));
  return rows.map((r) => ({ id: r.id, password: r.password! }));
}

/** Replaces a node's password while it still is `was` (another instance or an edit may have changed it); answers whether it did. */
export async function replaceExitPassword(db: TDbOrTx, id: number, was: string, sealed: string): Promise<boolean> {
  const rows = await db
    .update(exitNodes)
    .set({ password: sealed })
    .where(and(eq(exitNodes.id, id), eq(exitNodes.password, was)))
    .returning({ id: exitNodes.id });
  return rows.length > 0;
}
