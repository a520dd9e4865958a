import { and, eq, inArray, sql } from 'drizzle-orm';
import { DOMAIN_USAGE_KEPT } from '@proxy/contract';
import {
  carrierUsage,
  domainUsage,
  DOMAIN_USAGE_OTHER,
  gatewayUsageBatches,
  proxyTokens,
  stickySessions,
  tokenUsage,
  type TCarrierKind,
  type TDb,
} from '@proxy/db';

/** Bytes and ended connections of a token to one registrable domain in a batch ('' : other). */
export type TDomainUsageRow = { tokenId: number; userId: number; domain: string; bytes: number; connections: number };

import type { TStickySessionRow } from './sticky-sessions';

type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

/** Bytes and ended connections of a token through one carrier for one country in a batch. */
export type TCarrierUsageRow = {
  tokenId: number;
  kind: TCarrierKind;
  carrierId: number;
  country: string;
  bytes: number;
  unchargedBytes: number;
  connections: number;
};

/**
 * One flush of metered bytes: its id makes writing it again a no-op. `carriers` attribute each token's bytes to
 * the carriers that carried them (their bytes sum to the token's row exactly).
 */
export type TUsageBatch = {
  id: string;
  bucket: Date;
  /** Per token: charged bytes (the allowance and the bill) and bytes metered but not charged. */
  rows: { tokenId: number; userId: number; bytes: number; unchargedBytes?: number }[];
  carriers?: TCarrierUsageRow[];
  /** Sticky sessions' records changed since the last batch (the session hold report). */
  sessions?: TStickySessionRow[];
  /** Usage by domain of the batch's tokens whose owners keep it on (at most DOMAIN_USAGE_KEPT named per token, and other). */
  domains?: TDomainUsageRow[];
};

/** Written batches are kept this long (a batch retried later than this would count twice). */
export const USAGE_BATCH_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Writes a batch of metered bytes in one short transaction: its id, the hourly
 * buckets, the tokens' used counters, and what of this gateway's leases the
 * bytes spent. A batch whose id is already recorded (its commit went through
 * but the answer was lost) writes nothing: answers false.
 */
export async function writeUsage(db: TDb, batch: TUsageBatch, instanceId: string): Promise<boolean> {
  const carriers = batch.carriers ?? [];
  const domains = batch.domains ?? [];
  const sessions = batch.sessions ?? [];
  if (batch.rows.length === 0 && carriers.length === 0 && domains.length === 0 && sessions.length === 0) return false;
  const rows = [...batch.rows].sort((a, b) => a.tokenId - b.tokenId);
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(gatewayUsageBatches)
      .values({ id: batch.id })
      .onConflictDoNothing()
      .returning({ id: gatewayUsageBatches.id });
    if (recorded.length === 0) return false;
    // The UTC day of the batch's hour: carrier_usage's and domain_usage's day.
    const day = batch.bucket.toISOString().slice(0, 10);
    // The batch's tokens are locked first, in id order as every writer of them does: batches of one token (several
    // gateways) then merge their domains one after the other.
    if (domains.length > 0) {
      const ids = [...new Set([...rows.map((r) => r.tokenId), ...domains.map((d) => d.tokenId)])].sort((a, b) => a - b);
      await tx.execute(
        sql`SELECT id FROM proxy_tokens WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY id FOR UPDATE`,
      );
    }
    if (carriers.length > 0)
      await tx
        .insert(carrierUsage)
        .values(
          // In key order, as every gateway writes them (no two batches wait on each other's rows).
          [...carriers]
            .sort(
              (a, b) =>
                a.tokenId - b.tokenId ||
                a.kind.localeCompare(b.kind) ||
                a.carrierId - b.carrierId ||
                a.country.localeCompare(b.country),
            )
            .map((c) => ({
              day,
              tokenId: c.tokenId,
              carrierKind: c.kind,
              carrierId: c.carrierId,
              country: c.country,
              bytes: c.bytes,
              unchargedBytes: c.unchargedBytes,
              connections: c.connections,
            })),
        )
        .onConflictDoUpdate({
          target: [
            carrierUsage.day,
            carrierUsage.tokenId,
            carrierUsage.carrierKind,
            carrierUsage.carrierId,
            carrierUsage.country,
          ],
          set: {
            bytes: sql`${carrierUsage.bytes} + excluded.bytes`,
            unchargedBytes: sql`${carrierUsage.unchargedBytes} + excluded.uncharged_bytes`,
            connections: sql`${carrierUsage.connections} + excluded.connections`,
          },
        });
    if (domains.length > 0) await mergeDomains(tx, day, domains);
    if (sessions.length > 0) await upsertSessions(tx, sessions);
    if (rows.length === 0) return true;
    await tx
      .insert(tokenUsage)
      .values(
        rows.map((r) => ({
          tokenId: r.tokenId,
          userId: r.userId,
          bucket: batch.bucket,
          bytes: r.bytes,
          unchargedBytes: r.unchargedBytes ?? 0,
        })),
      )
      .onConflictDoUpdate({
        target: [tokenUsage.tokenId, tokenUsage.bucket],
        set: {
          bytes: sql`${tokenUsage.bytes} + excluded.bytes`,
          unchargedBytes: sql`${tokenUsage.unchargedBytes} + excluded.uncharged_bytes`,
        },
      });
    // Token rows in id order, as every other writer locks them (bytes not charged leave the used counter alone).
    for (const r of rows) {
      if (r.bytes === 0) continue;
      await tx
        .update(proxyTokens)
        .set({ trafficUsedBytes: sql`${proxyTokens.trafficUsedBytes} + ${r.bytes}` })
        .where(eq(proxyTokens.id, r.tokenId));
    }
    const spent = sql.join(
      rows.map((r) => sql`(${r.tokenId}::bigint, ${r.bytes}::bigint)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE gateway_leases l SET bytes = GREATEST(0, l.bytes - s.bytes)
      FROM (VALUES ${spent}) AS s(token_id, bytes)
      WHERE l.instance_id = ${instanceId} AND l.token_id = s.token_id`);
    return true;
  });
}

/**
 * Adds a batch's usage by domain to the day's rows, keeping at most DOMAIN_USAGE_KEPT named domains per token and
 * day: a domain already kept adds up; a new one takes a free place, or the place of the smallest kept domain when it
 * brings more bytes than that one holds (whose figures then move to other); otherwise it goes to other ('').
 * So the rows per token and day stay bounded whatever the traffic, and they always sum to the token's bytes.
 */
async function mergeDomains(tx: TTx, day: string, domains: TDomainUsageRow[]): Promise<void> {
  const tokenIds = [...new Set(domains.map((d) => d.tokenId))];
  const existing = await tx
    .select({
      tokenId: domainUsage.tokenId,
      domain: domainUsage.domain,
      bytes: domainUsage.bytes,
      connections: domainUsage.connections,
    })
    .from(domainUsage)
    .where(and(eq(domainUsage.day, day), inArray(domainUsage.tokenId, tokenIds)));
  const kept = new Map<number, Map<string, { bytes: number; connections: number }>>();
  for (const row of existing) {
    if (row.domain === DOMAIN_USAGE_OTHER) continue;
    let named = kept.get(row.tokenId);
    if (!named) kept.set(row.tokenId, (named = new Map()));
    named.set(row.domain, { bytes: row.bytes, connections: row.connections });
  }
  const adds = new Map<string, TDomainUsageRow>();
  const add = (row: TDomainUsageRow) => {
    const key = `${row.tokenId} ${row.domain}`;
    const known = adds.get(key);
    if (known) {
      known.bytes += row.bytes;
      known.connections += row.connections;
    } else adds.set(key, { ...row });
  };
  const evicted: { tokenId: number; domain: string }[] = [];
  // Domains already kept first (they grow), then new ones by bytes.
  const ordered = [...domains].sort((a, b) => {
    const ka = kept.get(a.tokenId)?.has(a.domain) ? 0 : 1;
    const kb = kept.get(b.tokenId)?.has(b.domain) ? 0 : 1;
    return ka - kb || b.bytes - a.bytes;
  });
  for (const row of ordered) {
    let named = kept.get(row.tokenId);
    if (!named) kept.set(row.tokenId, (named = new Map()));
    const other = { ...row, domain: DOMAIN_USAGE_OTHER };
    const held = row.domain === DOMAIN_USAGE_OTHER ? undefined : named.get(row.domain);
    if (row.domain === DOMAIN_USAGE_OTHER) {
      add(row);
    } else if (held) {
      held.bytes += row.bytes;
      held.connections += row.connections;
      add(row);
    } else if (named.size < DOMAIN_USAGE_KEPT) {
      named.set(row.domain, { bytes: row.bytes, connections: row.connections });
      add(row);
    } else {
      let smallest: [string, { bytes: number; connections: number }] | null = null;
      for (const entry of named) if (!smallest || entry[1].bytes < smallest[1].bytes) smallest = entry;
      if (smallest && row.bytes > smallest[1].bytes) {
        const [domain, figures] = smallest;
        named.delete(domain);
        adds.delete(`${row.tokenId} ${domain}`);
        evicted.push({ tokenId: row.tokenId, domain });
        add({ ...other, bytes: figures.bytes, connections: figures.connections });
        named.set(row.domain, { bytes: row.bytes, connections: row.connections });
        add(row);
      } else {
        add(other);
      }
    }
  }
  for (const { tokenId, domain } of evicted)
    await tx
      .delete(domainUsage)
      .where(and(eq(domainUsage.day, day), eq(domainUsage.tokenId, tokenId), eq(domainUsage.domain, domain)));
  const values = [...adds.values()]
    .sort((a, b) => a.tokenId - b.tokenId || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .map((r) => ({
      day,
      tokenId: r.tokenId,
      userId: r.userId,
      domain: r.domain,
      bytes: r.bytes,
      connections: r.connections,
    }));
  if (values.length === 0) return;
  await tx
    .insert(domainUsage)
    .values(values)
    .onConflictDoUpdate({
      target: [domainUsage.day, domainUsage.tokenId, domainUsage.domain],
      set: {
        bytes: sql`${domainUsage.bytes} + excluded.bytes`,
        connections: sql`${domainUsage.connections} + excluded.connections`,
      },
    });
}

/**
 * Adds this process's view of sticky sessions to sticky_sessions: the earliest first use and the latest last use;
 * the first carrier and exit address recorded stay; the earliest early end wins, and a gateway whose first carrier
 * differs from the recorded one (another gateway's) ends the session there too, as a failover.
 */
async function upsertSessions(tx: TTx, rows: TStickySessionRow[]): Promise<void> {
  const sorted = [...rows].sort(
    (a, b) =>
      a.tokenId - b.tokenId ||
      (a.session < b.session ? -1 : a.session > b.session ? 1 : 0) ||
      a.windowStart.getTime() - b.windowStart.getTime(),
  );
  const s = stickySessions;
  // The change this row reports, or the failover its different carrier means.
  const change = sql`CASE WHEN ${s.carrier} IS NOT NULL AND excluded.carrier IS NOT NULL AND excluded.carrier <> ${s.carrier}
    THEN LEAST(COALESCE(excluded.changed_at, excluded.first_seen_at), excluded.first_seen_at) ELSE excluded.changed_at END`;
  await tx
    .insert(s)
    .values(sorted)
    .onConflictDoUpdate({
      target: [s.tokenId, s.session, s.windowStart],
      set: {
        firstSeenAt: sql`LEAST(${s.firstSeenAt}, excluded.first_seen_at)`,
        lastSeenAt: sql`GREATEST(${s.lastSeenAt}, excluded.last_seen_at)`,
        carrier: sql`COALESCE(${s.carrier}, excluded.carrier)`,
        exitIp: sql`COALESCE(${s.exitIp}, excluded.exit_ip)`,
        endReason: sql`CASE WHEN ${change} IS NOT NULL AND (${s.changedAt} IS NULL OR ${change} < ${s.changedAt})
          THEN (CASE WHEN excluded.changed_at IS NOT NULL AND excluded.changed_at <= ${change} THEN excluded.end_reason ELSE 'failover' END)
          ELSE ${s.endReason} END`,
        changedAt: sql`CASE WHEN ${change} IS NOT NULL AND (${s.changedAt} IS NULL OR ${change} < ${s.changedAt})
          THEN ${change} ELSE ${s.changedAt} END`,
        connections: sql`${s.connections} + excluded.connections`,
      },
    });
}
