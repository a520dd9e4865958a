import { randomUUID } from 'node:crypto';
import type { TDb } from '@proxy/db';
import { writeUsage, type TUsageBatch } from './meter.repository';
import type { TLeases } from './leases';
import type { TStateCache } from './state-cache';

/** Receives metered bytes per token. */
export type TMeter = { record(tokenId: number, bytes: number): void };

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
 */
export function createMeter(options: { db: TDb; cache: TStateCache; leases: TLeases; now: () => number }) {
  const { cache, leases } = options;
  const pending = new Map<number, number>();
  /** A batch sent whose outcome is unknown (its write failed): sent again first. */
  let unsettled: TUsageBatch | null = null;

  function nextBatch(): TUsageBatch | null {
    if (pending.size === 0) return null;
    const rows: TUsageBatch['rows'] = [];
    for (const [tokenId, bytes] of pending) {
      const token = cache.tokenById(tokenId);
      if (token && bytes > 0) rows.push({ tokenId, userId: token.userId, bytes });
    }
    pending.clear();
    if (rows.length === 0) return null;
    const t = new Date(options.now());
    const bucket = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()));
    return { id: randomUUID(), bucket, rows };
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
    record(tokenId, bytes) {
      pending.set(tokenId, (pending.get(tokenId) ?? 0) + bytes);
      const token = cache.tokenById(tokenId);
      if (token) leases.metered(token, bytes);
    },
  };
  return {
    meter,
    flush,
    /** Tokens with bytes not yet written (waiting, or in a batch whose write failed). */
    pendingTokens: () => new Set([...pending.keys(), ...(unsettled?.rows.map((r) => r.tokenId) ?? [])]).size,
  };
}
