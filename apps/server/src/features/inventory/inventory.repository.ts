import { and, asc, count, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { exitNodes, type EXIT_KINDS, type TDbOrTx } from '@proxy/db';

/** An exit node row. */
export type TExitNodeRow = typeof exitNodes.$inferSelect;
/** What a new exit node needs. */
export type TNewExitNode = typeof exitNodes.$inferInsert;
/** Residential or data-center. */
export type TExitKind = (typeof EXIT_KINDS)[number];
/** An area filter: country required, state and city when given (non-empty). */
export type TAreaFilter = { kind: TExitKind; country: string; state?: string; city?: string };

function areaWhere(area: TAreaFilter): SQL {
  const parts: SQL[] = [eq(exitNodes.kind, area.kind), eq(exitNodes.country, area.country), eq(exitNodes.status, 'active')];
  if (area.state) parts.push(eq(exitNodes.state, area.state));
  if (area.city) parts.push(eq(exitNodes.city, area.city));
  return and(...parts)!;
}

// Shared direct nodes are always available; an upstream node is available while nobody holds it.
const isAvailable = or(eq(exitNodes.egress, 'direct'), isNull(exitNodes.holderTokenId))!;

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
export async function relabelExitNode(db: TDbOrTx, id: number, area: { country: string; state: string; city: string }): Promise<void> {
  await db.update(exitNodes).set(area).where(eq(exitNodes.id, id));
}

/**
 * Locks up to `limit` free upstream nodes of an area (FOR UPDATE SKIP LOCKED:
 * concurrent purchases never get the same node); the caller claims them.
 */
export async function lockFreeUpstreamNodes(tx: TDbOrTx, area: TAreaFilter, limit: number): Promise<TExitNodeRow[]> {
  if (limit <= 0) return [];
  return tx
    .select()
    .from(exitNodes)
    .where(and(areaWhere(area), ne(exitNodes.egress, 'direct'), isNull(exitNodes.holderTokenId)))
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
export type TAreaCount = { code: string; /** Name captured at import ('' when none). */ name: string; available: number };

/**
 * Areas with active inventory of a kind: countries (no country given), states
 * of a country, or cities of a state; available = shared direct nodes plus
 * free upstream nodes.
 */
export async function countAreas(db: TDbOrTx, kind: TExitKind, parent: { country?: string; state?: string }): Promise<TAreaCount[]> {
  const column = parent.country === undefined ? exitNodes.country : parent.state === undefined ? exitNodes.state : exitNodes.city;
  // A display name captured at import ("Los Angeles"); '' for countries and unnamed areas.
  const nameColumn =
    parent.country === undefined
      ? sql<string>`''`
      : parent.state === undefined
        ? sql<string>`max(${exitNodes.stateName})`
        : sql<string>`max(${exitNodes.cityName})`;
  const parts: SQL[] = [eq(exitNodes.kind, kind), eq(exitNodes.status, 'active')];
  if (parent.country !== undefined) parts.push(eq(exitNodes.country, parent.country));
  if (parent.state !== undefined) parts.push(eq(exitNodes.state, parent.state));
  const rows = await db
    .select({ code: column, name: nameColumn, available: sql<number>`count(*) filter (where ${isAvailable})` })
    .from(exitNodes)
    .where(and(...parts))
    .groupBy(column)
    .orderBy(asc(column));
  return rows.map((r) => ({ code: r.code, name: r.name ?? '', available: Number(r.available) }));
}
