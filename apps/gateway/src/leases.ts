import type { TDb } from '@proxy/db';
import { claimLease, returnLease, type TTokenRow } from './gateway.repository';

/**
 * Traffic allowance claimed in leases: a gateway claims a slice of a traffic
 * token's allowance before spending it, so the overshoot of all gateways
 * together stays bounded by one lease each plus one sampling interval.
 */
export function createLeases(options: { db: TDb; leaseBytes: number; onError: (error: unknown, where: string) => void }) {
  const { db, leaseBytes } = options;
  const lease = new Map<number, number>();
  const claiming = new Set<number>();
  const exhausted = new Set<number>();

  function topUp(token: TTokenRow): void {
    if (claiming.has(token.id)) return;
    claiming.add(token.id);
    claimLease(db, token.id, leaseBytes).then(
      (granted) => {
        claiming.delete(token.id);
        if (granted > 0) {
          lease.set(token.id, (lease.get(token.id) ?? 0) + granted);
          exhausted.delete(token.id);
        } else if ((lease.get(token.id) ?? 0) <= 0) {
          exhausted.add(token.id);
        }
      },
      (err: unknown) => {
        claiming.delete(token.id);
        options.onError(err, 'lease');
      },
    );
  }

  return {
    /** Allowance this gateway may still spend: with a lease in hand, the lease; without, what no gateway has claimed. */
    allowanceLeft(token: TTokenRow): number {
      if (token.trafficLimitBytes === null) return Infinity;
      if (exhausted.has(token.id)) return 0;
      if (lease.get(token.id)) return Infinity;
      return token.trafficLimitBytes - Math.max(token.trafficLeasedBytes, token.trafficUsedBytes);
    },
    /** Claims more before the lease runs low (a traffic token about to carry bytes). */
    prepare(token: TTokenRow): void {
      if (token.trafficLimitBytes !== null && (lease.get(token.id) ?? 0) < leaseBytes / 2) topUp(token);
    },
    /** Spends metered bytes from the token's lease. */
    spend(token: TTokenRow, bytes: number): void {
      if (token.trafficLimitBytes === null) return;
      const left = (lease.get(token.id) ?? 0) - bytes;
      lease.set(token.id, left);
      if (left < leaseBytes / 2) topUp(token);
      if (left <= 0 && !claiming.has(token.id)) exhausted.add(token.id);
    },
    /** A changed row (renewal, new limit) may lift exhaustion. */
    onToken(row: TTokenRow): void {
      if (row.trafficLimitBytes !== null && Math.max(row.trafficLeasedBytes, row.trafficUsedBytes) < row.trafficLimitBytes) exhausted.delete(row.id);
    },
    /** Gives back every unspent lease (clean stop). */
    async returnAll(): Promise<void> {
      for (const [tokenId, left] of lease) if (left > 0) await returnLease(db, tokenId, left);
      lease.clear();
    },
  };
}

/** The leases type. */
export type TLeases = ReturnType<typeof createLeases>;
