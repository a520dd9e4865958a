import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { TDb } from '@proxy/db';
import { claimLease, heartbeat, releaseLeases } from './leases.repository';
import type { TTokenRow } from './tokens.repository';

/**
 * Traffic allowance claimed in leases: a gateway claims a slice of a traffic
 * token's allowance before spending it, so the overshoot of all gateways
 * together stays bounded by one lease each plus one sampling interval.
 *
 * Each gateway process is an instance with a heartbeat; what it holds of each
 * token is recorded per instance (claimed minus written as used). A gateway
 * that stops cleanly returns its leases; one killed or cut off stops beating,
 * and after `expiryMs` any live gateway's sweep returns what it held, so a
 * dead gateway never strands a token's allowance.
 */
export function createLeases(options: {
  db: TDb;
  leaseBytes: number;
  expiryMs?: number;
  onError: (error: unknown, where: string) => void;
}) {
  const { db, leaseBytes } = options;
  const expiryMs = options.expiryMs ?? 30_000;
  const instanceId = randomUUID();
  const label = `${os.hostname()}:${process.pid}`;
  const lease = new Map<number, number>();
  const claiming = new Set<number>();
  const exhausted = new Set<number>();
  let beatTimer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | null = null;

  function topUp(token: TTokenRow): void {
    if (claiming.has(token.id)) return;
    claiming.add(token.id);
    claimLease(db, instanceId, token.id, leaseBytes).then(
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

  /** Beats, then returns the leases of gateways whose heartbeat is stale. */
  async function beat(): Promise<void> {
    const known = await heartbeat(db, instanceId, label);
    // Swept as stale while alive (cut off longer than the expiry): what it held was returned, claim anew.
    if (!known) lease.clear();
    await releaseLeases(db, { staleAfterMs: expiryMs });
  }

  return {
    /** This gateway's instance id (its leases and heartbeat row). */
    instanceId,
    /** Records this gateway, then beats and sweeps every `expiryMs / 6`. */
    async start(): Promise<void> {
      await heartbeat(db, instanceId, label);
      beatTimer = setInterval(
        () => {
          beating ??= beat()
            .catch((err: unknown) => options.onError(err, 'heartbeat'))
            .finally(() => (beating = null));
        },
        Math.max(100, Math.floor(expiryMs / 6)),
      );
      beatTimer.unref();
    },
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
      if (
        row.trafficLimitBytes !== null &&
        Math.max(row.trafficLeasedBytes, row.trafficUsedBytes) < row.trafficLimitBytes
      )
        exhausted.delete(row.id);
    },
    /** Stops beating and gives back every unspent lease (clean stop, after the last flush). */
    async returnAll(): Promise<void> {
      clearInterval(beatTimer);
      await beating;
      await releaseLeases(db, { staleAfterMs: expiryMs, instanceId });
      lease.clear();
    },
  };
}

/** The leases type. */
export type TLeases = ReturnType<typeof createLeases>;
