import { randomUUID } from 'node:crypto';
import type { TDb } from '@proxy/db';
import type { TCarrierKind } from '@proxy/db';
import type { Connection } from './connection';
import type { TExit } from './egress';
import { DOMAIN_USAGE_KEPT } from '@proxy/contract';
import { DOMAIN_OTHER, registrableDomain } from './domains';
import { writeUsage, type TCarrierUsageRow, type TDomainUsageRow, type TUsageBatch } from './meter.repository';
import type { TTokenRow } from './tokens.repository';
import type { TStickySessions } from './sticky-sessions';
import type { TLeases } from './leases';
import type { TStateCache } from './state-cache';

/** Receives metered bytes per token, attributed to the carrier of the connection they came from. */
export type TMeter = {
  /** `isCharged` false: metered but not charged (lost before the upstream answered; docs/gateway.md). */
  record(tokenId: number, bytes: number, conn?: Connection, isCharged?: boolean): void;
  /** A connection of the token closed: counted on its carrier (when it had one). */
  closed?(tokenId: number, conn: Connection): void;
  /** Bytes exchanged with a pool in a dial that failed: metered on that pool, not charged. */
  lost?(tokenId: number, bytes: number, carrier: TExit, country: string, conn?: Connection): void;
};

/**
 * Bytes and ended connections of one token through one carrier for one country since the last flush. A connection
 * keeps its tally; a tally idle for a whole flush is dropped (`isGone`: the next sample looks it up anew).
 */
export type TCarrierTally = {
  tokenId: number;
  kind: TCarrierKind;
  carrierId: number;
  country: string;
  bytes: number;
  unchargedBytes: number;
  connections: number;
  isGone: boolean;
};

/**
 * Bytes and ended connections of one token to one registrable domain since the last flush (usage by domain; only for
 * accounts that keep it on). Kept and dropped like carrier tallies.
 */
export type TDomainTally = {
  tokenId: number;
  userId: number;
  domain: string;
  bytes: number;
  connections: number;
  isGone: boolean;
};

/** The carrier kind and id of an exit or pool (null: none). */
export function carrierOf(exit: TExit | null): { kind: TCarrierKind; id: number } {
  if (!exit) return { kind: 'none', id: 0 };
  return { kind: exit.kind === 'pool' ? 'pool' : 'exit', id: exit.id };
}

/**
 * Metered bytes per token, told to the token's lease at once (what the data
 * path did not take from it first is taken now) and written in batches:
 * `token_usage` hourly buckets and `proxy_tokens.traffic_used_bytes` in one
 * short transaction per flush.
 *
 * Each flush is a batch with its own id. A flush that fails keeps its batch
 * and the next flush sends that same batch (same id, same rows) before any new
 * one: if its commit had gone through and only the answer was lost, the
 * database already has the id and writes nothing, so bytes are written once.
 * Bytes metered meanwhile wait for the next batch.
 *
 * Every metered byte is also added to the tally of its connection's carrier (pool, exit or none) and area country;
 * the batch carries those tallies of its tokens, so carrier_usage gets, in the same transaction, bytes that sum to
 * each token's bytes of the batch exactly.
 */
export function createMeter(options: {
  db: TDb;
  cache: TStateCache;
  leases: TLeases;
  now: () => number;
  /** Sticky sessions' records, written with each batch (absent: none). */
  sessions?: TStickySessions;
}) {
  const { cache, leases } = options;
  const pending = new Map<number, number>();
  /** Bytes metered but not charged, per token, since the last batch. */
  const pendingUncharged = new Map<number, number>();
  /** A batch sent whose outcome is unknown (its write failed): sent again first. */
  let unsettled: TUsageBatch | null = null;
  const tallies = new Map<string, TCarrierTally>();
  const domainTallies = new Map<string, TDomainTally>();

  // The tally of the connection's token and target domain (null when the owner keeps usage by domain off).
  function domainTallyFor(token: TTokenRow, conn: Connection | undefined): TDomainTally | null {
    const held = conn?.domainTally;
    if (held && !held.isGone && held.tokenId === token.id) return held;
    if (!cache.isDomainUsageOn(token.userId)) return null;
    let domain = DOMAIN_OTHER;
    if (conn) domain = conn.domain ??= registrableDomain(conn.targetHost);
    const key = `${token.id} ${domain}`;
    let tally = domainTallies.get(key);
    if (!tally) {
      tally = { tokenId: token.id, userId: token.userId, domain, bytes: 0, connections: 0, isGone: false };
      domainTallies.set(key, tally);
    }
    if (conn) conn.domainTally = tally;
    return tally;
  }

  // Each token's domain tallies of the batch: the DOMAIN_USAGE_KEPT largest by bytes, the rest summed as other.
  function domainRows(): TDomainUsageRow[] {
    const byToken = new Map<number, TDomainTally[]>();
    for (const [key, tally] of domainTallies) {
      if (tally.bytes === 0 && tally.connections === 0) {
        tally.isGone = true;
        domainTallies.delete(key);
        continue;
      }
      let list = byToken.get(tally.tokenId);
      if (!list) byToken.set(tally.tokenId, (list = []));
      list.push(tally);
    }
    const rows: TDomainUsageRow[] = [];
    for (const [tokenId, list] of byToken) {
      list.sort((a, b) => b.bytes - a.bytes || b.connections - a.connections);
      let other: TDomainUsageRow | null = null;
      let kept = 0;
      for (const t of list) {
        if (t.domain !== DOMAIN_OTHER && kept < DOMAIN_USAGE_KEPT) {
          kept += 1;
          rows.push({ tokenId, userId: t.userId, domain: t.domain, bytes: t.bytes, connections: t.connections });
        } else {
          other ??= { tokenId, userId: t.userId, domain: DOMAIN_OTHER, bytes: 0, connections: 0 };
          other.bytes += t.bytes;
          other.connections += t.connections;
        }
        t.bytes = 0;
        t.connections = 0;
      }
      if (other) rows.push(other);
    }
    return rows;
  }

  function tallyOf(tokenId: number, conn: Connection | undefined): TCarrierTally {
    const tally = tallyAt(tokenId, conn?.carrier ?? null, conn?.areaCountry ?? '');
    if (conn) conn.tally = tally;
    return tally;
  }

  function tallyAt(tokenId: number, carrier: TExit | null, country: string): TCarrierTally {
    const { kind, id } = carrierOf(carrier);
    const key = `${tokenId} ${kind} ${id} ${country}`;
    let tally = tallies.get(key);
    if (!tally) {
      tally = { tokenId, kind, carrierId: id, country, bytes: 0, unchargedBytes: 0, connections: 0, isGone: false };
      tallies.set(key, tally);
    }
    return tally;
  }

  // A connection's tally, or its token's tally of no carrier (bytes of a connection not identified with one).
  function tallyFor(tokenId: number, conn: Connection | undefined): TCarrierTally {
    const held = conn?.tally;
    if (held && !held.isGone && held.tokenId === tokenId) return held;
    return tallyOf(tokenId, conn);
  }

  function nextBatch(): TUsageBatch | null {
    if (
      pending.size === 0 &&
      pendingUncharged.size === 0 &&
      tallies.size === 0 &&
      domainTallies.size === 0 &&
      (options.sessions?.size() ?? 0) === 0
    )
      return null;
    const rows: TUsageBatch['rows'] = [];
    for (const tokenId of new Set([...pending.keys(), ...pendingUncharged.keys()])) {
      const token = cache.tokenById(tokenId);
      const bytes = pending.get(tokenId) ?? 0;
      const unchargedBytes = pendingUncharged.get(tokenId) ?? 0;
      if (token && bytes + unchargedBytes > 0) rows.push({ tokenId, userId: token.userId, bytes, unchargedBytes });
    }
    pending.clear();
    pendingUncharged.clear();
    const written = new Set(rows.map((r) => r.tokenId));
    const carriers: TCarrierUsageRow[] = [];
    for (const [key, tally] of tallies) {
      if (tally.bytes === 0 && tally.unchargedBytes === 0 && tally.connections === 0) {
        // Idle for a whole batch: dropped (a connection still holding it looks its tally up again).
        tally.isGone = true;
        tallies.delete(key);
        continue;
      }
      const isKnown =
        written.has(tally.tokenId) ||
        (tally.bytes === 0 && tally.unchargedBytes === 0 && cache.tokenById(tally.tokenId));
      if (isKnown)
        carriers.push({
          tokenId: tally.tokenId,
          kind: tally.kind,
          carrierId: tally.carrierId,
          country: tally.country,
          bytes: tally.bytes,
          unchargedBytes: tally.unchargedBytes,
          connections: tally.connections,
        });
      tally.bytes = 0;
      tally.unchargedBytes = 0;
      tally.connections = 0;
    }
    const domains = domainRows().filter((d) => written.has(d.tokenId) || cache.tokenById(d.tokenId));
    const sessions = options.sessions?.takeRows() ?? [];
    if (rows.length === 0 && carriers.length === 0 && domains.length === 0 && sessions.length === 0) return null;
    const t = new Date(options.now());
    const bucket = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()));
    return { id: randomUUID(), bucket, rows, carriers, domains, sessions };
  }

  async function flushOnce(): Promise<void> {
    if (unsettled) {
      await writeUsage(options.db, unsettled, leases.instanceId);
      unsettled = null;
    }
    const batch = nextBatch();
    if (!batch) return;
    unsettled = batch;
    await writeUsage(options.db, batch, leases.instanceId);
    unsettled = null;
  }

  // One flush at a time: a flush asked for while one runs starts after it.
  let flushing: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const run = flushing.catch(() => {}).then(flushOnce);
    flushing = run;
    return run;
  }

  const meter: TMeter = {
    record(tokenId, bytes, conn, isCharged = true) {
      const token = cache.tokenById(tokenId);
      if (token) {
        const domain = domainTallyFor(token, conn);
        if (domain) domain.bytes += bytes;
      }
      if (!isCharged) {
        pendingUncharged.set(tokenId, (pendingUncharged.get(tokenId) ?? 0) + bytes);
        tallyFor(tokenId, conn).unchargedBytes += bytes;
        // What the data path took from the purse for them is given back: they do not spend the allowance.
        if (token) leases.giveBack(token, bytes);
        return;
      }
      pending.set(tokenId, (pending.get(tokenId) ?? 0) + bytes);
      tallyFor(tokenId, conn).bytes += bytes;
      if (token) leases.metered(token, bytes);
    },
    closed(tokenId, conn) {
      options.sessions?.closed(conn);
      if (conn.carrier) tallyFor(tokenId, conn).connections += 1;
      const token = cache.tokenById(tokenId);
      // A connection that reached a target (it was dialled): one connection of its domain.
      if (token && conn.carrier) {
        const domain = domainTallyFor(token, conn);
        if (domain) domain.connections += 1;
      }
    },
    lost(tokenId, bytes, carrier, country, conn) {
      pendingUncharged.set(tokenId, (pendingUncharged.get(tokenId) ?? 0) + bytes);
      tallyAt(tokenId, carrier, country).unchargedBytes += bytes;
      const token = cache.tokenById(tokenId);
      if (token) {
        const domain = domainTallyFor(token, conn);
        if (domain) domain.bytes += bytes;
      }
    },
  };
  return {
    meter,
    flush,
    /** Tokens with bytes not yet written (waiting, or in a batch whose write failed). */
    pendingTokens: () =>
      new Set([...pending.keys(), ...pendingUncharged.keys(), ...(unsettled?.rows.map((r) => r.tokenId) ?? [])]).size,
  };
}
