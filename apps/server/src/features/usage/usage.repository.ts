import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ledgerEntries, proxyTokens, tokenUsage, type TDbOrTx } from '@proxy/db';
import type { TProxyList } from '@proxy/contract';
import { listMembership } from '../proxies/proxies.repository';

/** Which of a user's tokens a traffic query covers. */
export type TUsageScope = { userId: number; tokenId?: number; list?: TProxyList };

/** Charged and uncharged bytes per hour bucket (summed over the scope's tokens) with bucket start in [from, to). */
export async function sumUsageByHour(
  db: TDbOrTx,
  scope: TUsageScope,
  from: Date,
  to: Date,
): Promise<{ bucket: Date; bytes: number; unchargedBytes: number }[]> {
  const parts: SQL[] = [eq(tokenUsage.userId, scope.userId), gte(tokenUsage.bucket, from), lt(tokenUsage.bucket, to)];
  if (scope.tokenId !== undefined) parts.push(eq(tokenUsage.tokenId, scope.tokenId));
  if (scope.list) {
    // Membership is a property of the token (product, category, billing), deleted tokens included: their bytes were used.
    const members = db
      .select({ id: proxyTokens.id })
      .from(proxyTokens)
      .where(and(eq(proxyTokens.userId, scope.userId), listMembership(scope.list)));
    parts.push(inArray(tokenUsage.tokenId, members));
  }
  const rows = await db
    .select({
      bucket: tokenUsage.bucket,
      bytes: sql<string>`sum(${tokenUsage.bytes})`,
      uncharged: sql<string>`sum(${tokenUsage.unchargedBytes})`,
    })
    .from(tokenUsage)
    .where(and(...parts))
    .groupBy(tokenUsage.bucket)
    .orderBy(tokenUsage.bucket);
  return rows.map((r) => ({ bucket: new Date(r.bucket), bytes: Number(r.bytes), unchargedBytes: Number(r.uncharged) }));
}

/** Spend and recharge in fen per local day (YYYY-MM-DD at the given UTC offset) of a user's entries in [from, to). */
export async function sumMoneyByDay(
  db: TDbOrTx,
  userId: number,
  from: Date,
  to: Date,
  tzOffsetMinutes: number,
): Promise<{ date: string; spendFen: number; rechargeFen: number }[]> {
  const e = ledgerEntries;
  const day = sql<string>`to_char((${e.createdAt} at time zone 'UTC') + make_interval(mins => ${tzOffsetMinutes}::int), 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      date: day,
      // Debits leave the available balance, consumes the frozen one: both are money spent.
      spend: sql<string>`coalesce(sum(case when ${e.kind} = 'debit' then -${e.availableDelta} when ${e.kind} = 'consume' then -${e.frozenDelta} else 0 end), 0)`,
      // Only paid top-ups; the trial credit, rebates and adjustments are credits but not recharges.
      recharge: sql<string>`coalesce(sum(case when ${e.kind} = 'credit' and ${e.reason} = 'recharge' then ${e.availableDelta} else 0 end), 0)`,
    })
    .from(e)
    .where(and(eq(e.userId, userId), gte(e.createdAt, from), lt(e.createdAt, to)))
    // By position: the day expression carries a bind parameter, so repeating it would not match the select list.
    .groupBy(sql`1`);
  return rows.map((r) => ({ date: r.date, spendFen: Number(r.spend), rechargeFen: Number(r.recharge) }));
}
