import { randomUUID } from 'node:crypto';
import type { TDb } from '@proxy/db';
import type { TCarrierKind } from '@proxy/db';
import type { Connection } from './connection';
import type { TExit } from './egress';
import { writeUsage, type TCarrierUsageRow, type TUsageBatch } from './meter.repository';
import type { TLeases } from './leases';
import type { TStateCache } from './state-cache';

/** Receives metered bytes per token, attributed to the carrier of the connection they came from. */
export type TMeter = {
  record(tokenId: number, bytes: number, conn?: Connection): void;
  /** A connection of the token closed: counted on its carrier (when it had one). */
  closed?(tokenId: number, conn: Connection): void;
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
export function createMeter(options: { db: TDb; cache: TStateCache; leases: TLeases; now: () => number }) {
  const { cache, leases } = options;
  const pending = new Map<number, number>();
  /** A batch sent whose outcome is unknown (its write failed): sent again first. */
  let unsettled: TUsageBatch | null = null;
  const tallies = new Map<string, TCarrierTally>();

  function tallyOf(tokenId: number, conn: Connection | undefined): TCarrierTally {
    const { kind, id } = carrierOf(conn?.carrier ?? null);
    const country = conn?.areaCountry ?? '';
    const key = `${tokenId} ${kind} ${id} ${country}`;
    let tally = tallies.get(key);
    if (!tally) {
      tally = { tokenId, kind, carrierId: id, country, bytes: 0, connections: 0, isGone: false };
      tallies.set(key, tally);
    }
    if (conn) conn.tally = tally;
    return tally;
  }

  // A connection's tally, or its token's tally of no carrier (bytes of a connection not identified with one).
  function tallyFor(tokenId: number, conn: Connection | undefined): TCarrierTally {
    const held = conn?.tally;
    if (held && !held.isGone && held.tokenId === tokenId) return held;
    return tallyOf(tokenId, conn);
  }

  function nextBatch(): TUsageBatch | null {
    if (pending.size === 0 && tallies.size === 0) return null;
    const rows: TUsageBatch['rows'] = [];
    for (const [tokenId, bytes] of pending) {
      const token = cache.tokenById(tokenId);
      if (token && bytes > 0) rows.push({ tokenId, userId: token.userId, bytes });
    }
    pending.clear();
    const written = new Set(rows.map((r) => r.tokenId));
    const carriers: TCarrierUsageRow[] = [];
    for (const [key, tally] of tallies) {
      if (tally.bytes === 0 && tally.connections === 0) {
        // Idle for a whole batch: dropped (a connection still holding it looks its tally up again).
        tally.isGone = true;
        tallies.delete(key);
        continue;
      }
      const isKnown = written.has(tally.tokenId) || (tally.bytes === 0 && cache.tokenById(tally.tokenId));
      if (isKnown)
        carriers.push({
          tokenId: tally.tokenId,
          kind: tally.kind,
          carrierId: tally.carrierId,
          country: tally.country,
          bytes: tally.bytes,
          connections: tally.connections,
        });
      tally.bytes = 0;
      tally.connections = 0;
    }
    if (rows.length === 0 && carriers.length === 0) return null;
    const t = new Date(options.now());
    const bucket = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()));
    return { id: randomUUID(), bucket, rows, carriers };
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
    record(tokenId, bytes, conn) {
      pending.set(tokenId, (pending.get(tokenId) ?? 0) + bytes);
      tallyFor(tokenId, conn).bytes += bytes;
      const token = cache.tokenById(tokenId);
      if (token) leases.metered(token, bytes);
    },
    closed(tokenId, conn) {
      if (conn.carrier) tallyFor(tokenId, conn).connections += 1;
    },
  };
  return {
    meter,
    flush,
    /** Tokens with bytes not yet written (waiting, or in a batch whose write failed). */
    pendingTokens: () => new Set([...pending.keys(), ...(unsettled?.rows.map((r) => r.tokenId) ?? [])]).size,
  };
}
