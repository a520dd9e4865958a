import type { TDb } from '@proxy/db';
import { writeUsage } from './gateway.repository';
import type { TLeases } from './leases';
import type { TStateCache } from './state-cache';

/** Receives metered bytes per token. */
export type TMeter = { record(tokenId: number, bytes: number): void };

/**
 * Metered bytes per token, spent from the token's lease at once and written
 * in batches: `token_usage` hourly buckets and `proxy_tokens.traffic_used_bytes`
 * in one short transaction per flush.
 */
export function createMeter(options: { db: TDb; cache: TStateCache; leases: TLeases; now: () => number }) {
  const { cache, leases } = options;
  const pending = new Map<number, number>();

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const rows: { tokenId: number; userId: number; bytes: number }[] = [];
    for (const [tokenId, bytes] of pending) {
      const token = cache.tokenById(tokenId);
      if (token && bytes > 0) rows.push({ tokenId, userId: token.userId, bytes });
    }
    pending.clear();
    const t = new Date(options.now());
    const bucket = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()));
    try {
      await writeUsage(options.db, rows, bucket);
    } catch (err) {
      // Keep the bytes for the next flush rather than lose them.
      for (const r of rows) pending.set(r.tokenId, (pending.get(r.tokenId) ?? 0) + r.bytes);
      throw err;
    }
  }

  const meter: TMeter = {
    record(tokenId, bytes) {
      pending.set(tokenId, (pending.get(tokenId) ?? 0) + bytes);
      const token = cache.tokenById(tokenId);
      if (token) leases.spend(token, bytes);
    },
  };
  return { meter, flush, pendingTokens: () => pending.size };
}
