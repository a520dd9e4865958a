import { and, desc, asc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import { DOMAIN_USAGE_OTHER, domainUsage, type TDbOrTx } from '@proxy/db';

/** The usage by target domain's rows (domain_usage, written by the gateways): sums over an account's UTC days. */

/** Which rows a domain usage query sums: always one account's, over UTC days [from, to], optionally one proxy's. */
export type TDomainUsageScope = { userId: number; tokenId?: number; from: string; to: string };

function whereOf(scope: TDomainUsageScope, ...more: SQL[]): SQL | undefined {
  return and(
    eq(domainUsage.userId, scope.userId),
    gte(domainUsage.day, scope.from),
    lte(domainUsage.day, scope.to),
    scope.tokenId === undefined ? undefined : eq(domainUsage.tokenId, scope.tokenId),
    ...more,
  );
}

/** Bytes and connections of a scope: everything, and the gateway's "other" rows alone. */
export async function sumDomainUsage(
  db: TDbOrTx,
  scope: TDomainUsageScope,
): Promise<{ bytes: number; connections: number; otherBytes: number; otherConnections: number }> {
  const isOther = sql`${domainUsage.domain} = ${DOMAIN_USAGE_OTHER}`;
  const [row] = await db
    .select({
      bytes: sql<string>`coalesce(sum(${domainUsage.bytes}), 0)`,
      connections: sql<string>`coalesce(sum(${domainUsage.connections}), 0)`,
      otherBytes: sql<string>`coalesce(sum(${domainUsage.bytes}) filter (where ${isOther}), 0)`,
      otherConnections: sql<string>`coalesce(sum(${domainUsage.connections}) filter (where ${isOther}), 0)`,
    })
    .from(domainUsage)
    .where(whereOf(scope));
  return {
    bytes: Number(row.bytes),
    connections: Number(row.connections),
    otherBytes: Number(row.otherBytes),
    otherConnections: Number(row.otherConnections),
  };
}

/** The scope's named domains with the most bytes (ties by name), summed over its proxies and days. */
export async function topDomains(
  db: TDbOrTx,
  scope: TDomainUsageScope,
  limit: number,
): Promise<{ domain: string; bytes: number; connections: number }[]> {
  const bytes = sql<string>`sum(${domainUsage.bytes})`;
  const rows = await db
    .select({ domain: domainUsage.domain, bytes, connections: sql<string>`sum(${domainUsage.connections})` })
    .from(domainUsage)
    .where(whereOf(scope, ne(domainUsage.domain, DOMAIN_USAGE_OTHER)))
    .groupBy(domainUsage.domain)
    .orderBy(desc(bytes), asc(domainUsage.domain))
    .limit(limit);
  return rows.map((r) => ({ domain: r.domain, bytes: Number(r.bytes), connections: Number(r.connections) }));
}
