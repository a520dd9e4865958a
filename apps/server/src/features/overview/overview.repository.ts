import { and, count, eq, gt, gte, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  exitNodes,
  ledgerEntries,
  payOrders,
  proxyTokens,
  supplyRequests,
  tokenUsage,
  usdtTransfers,
  workOrders,
  type TDbOrTx,
} from '@proxy/db';

/**
 * The overview's figures: each one SQL aggregate over its table. Days are
 * UTC calendar days as 'YYYY-MM-DD'; a day without rows is absent (the
 * service fills the window).
 */

/** Ledger reasons that are spend on proxies. */
const SPEND_REASONS = ['purchase', 'renew', 'auto_renew'] as const;

const utcDay = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`;

/** Successful recharges per day of payment: how many, and the amount paid in (fen, without fee or gift). */
export async function sumRechargesByDay(
  db: TDbOrTx,
  from: Date,
): Promise<{ day: string; count: number; amountFen: number }[]> {
  const day = utcDay(payOrders.paidAt);
  const rows = await db
    .select({ day, count: count(), amountFen: sql<string>`coalesce(sum(${payOrders.amountFen}), 0)` })
    .from(payOrders)
    .where(and(eq(payOrders.status, 'success'), gte(payOrders.paidAt, from)))
    .groupBy(day);
  return rows.map((r) => ({ day: r.day, count: Number(r.count), amountFen: Number(r.amountFen) }));
}

/** Money spent on proxies per day: the ledger's debits of purchases and renewals (fen). */
export async function sumSpendByDay(db: TDbOrTx, from: Date): Promise<{ day: string; amountFen: number }[]> {
  const day = utcDay(ledgerEntries.createdAt);
  const rows = await db
    .select({ day, amountFen: sql<string>`coalesce(sum(-${ledgerEntries.availableDelta}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, 'debit'),
        inArray(ledgerEntries.reason, [...SPEND_REASONS]),
        lt(ledgerEntries.availableDelta, 0),
        gte(ledgerEntries.createdAt, from),
      ),
    )
    .groupBy(day);
  return rows.map((r) => ({ day: r.day, amountFen: Number(r.amountFen) }));
}

/** Metered bytes per day, every token together. */
export async function sumTrafficByDay(db: TDbOrTx, from: Date): Promise<{ day: string; bytes: number }[]> {
  const day = utcDay(tokenUsage.bucket);
  const rows = await db
    .select({ day, bytes: sql<string>`coalesce(sum(${tokenUsage.bytes}), 0)` })
    .from(tokenUsage)
    .where(gte(tokenUsage.bucket, from))
    .groupBy(day);
  return rows.map((r) => ({ day: r.day, bytes: Number(r.bytes) }));
}

/** Live proxies (not deleted, not expired) by category, product and billing. */
export async function countLiveTokensByProduct(
  db: TDbOrTx,
  now: Date,
): Promise<{ category: 'isp' | 'idc'; product: 'static' | 'dynamic'; billing: 'traffic' | 'ip'; count: number }[]> {
  const rows = await db
    .select({
      category: proxyTokens.category,
      product: proxyTokens.product,
      billing: proxyTokens.billing,
      count: count(),
    })
    .from(proxyTokens)
    .where(and(isNull(proxyTokens.deletedAt), ne(proxyTokens.status, 'expired'), gt(proxyTokens.expiresAt, now)))
    .groupBy(proxyTokens.category, proxyTokens.product, proxyTokens.billing)
    .orderBy(proxyTokens.category, proxyTokens.product, proxyTokens.billing);
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** Active exits per country and kind, and how many are free to sell (shared direct exits, upstream exits nobody holds). */
export async function countStockByArea(
  db: TDbOrTx,
): Promise<{ country: string; kind: 'residential' | 'datacenter'; total: number; free: number }[]> {
  const rows = await db
    .select({
      country: exitNodes.country,
      kind: exitNodes.kind,
      total: count(),
      free: sql<string>`count(*) filter (where ${exitNodes.egress} = 'direct' or ${exitNodes.holderTokenId} is null)`,
    })
    .from(exitNodes)
    .where(eq(exitNodes.status, 'active'))
    .groupBy(exitNodes.country, exitNodes.kind)
    .orderBy(exitNodes.country, exitNodes.kind);
  return rows.map((r) => ({ country: r.country, kind: r.kind, total: Number(r.total), free: Number(r.free) }));
}

/** The queues: supply requests waiting to be taken, work orders waiting for an answer, USDT transfers that matched no order. */
export async function countQueues(
  db: TDbOrTx,
): Promise<{ pendingSupply: number; openWorkOrders: number; unmatchedPayments: number }> {
  const [[supply], [orders], [transfers]] = await Promise.all([
    db.select({ n: count() }).from(supplyRequests).where(eq(supplyRequests.status, 'pending')),
    db.select({ n: count() }).from(workOrders).where(eq(workOrders.status, 'open')),
    db.select({ n: count() }).from(usdtTransfers).where(eq(usdtTransfers.status, 'unmatched')),
  ]);
  return { pendingSupply: Number(supply.n), openWorkOrders: Number(orders.n), unmatchedPayments: Number(transfers.n) };
}
