import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { TDb } from '@proxy/db';
import { GatewayCounters } from './gateway-counters';
import { claimLease, heartbeat, releaseLeases, returnLease } from './leases.repository';
import type { TTokenRow } from './tokens.repository';

/** A claim that failed (the database unreachable) is tried again after this long, not at once. */
const CLAIM_RETRY_MS = 1000;
/**
 * A token spending its lease fast claims larger slices (doubling while each lasts under a second, up to this many
 * leases), so that a claim stays rare at any speed; what a process holds unspent is given back once the token
 * carries nothing for a heartbeat, so it is not stranded there.
 */
const MAX_SLICE_LEASES = 16;
const FAST_CLAIM_MS = 1000;

/**
 * What this gateway process holds of one traffic token's allowance. The data
 * path takes from it before it passes bytes on (tunnel.ts, http-forward.ts):
 * what it may not take waits, its source paused, until the next claim is
 * settled; a refused claim ends the token's connections. So a process never
 * carries more than it claimed (plus what it metered without passing through
 * the purse, such as a request head read before the token was known, taken
 * from the purse at the next sample).
 */
export class Purse {
  /** Bytes this process may still carry for the token: its leases minus what it carried. */
  left = 0;
  /** The last claim was refused: everything the allowance has is handed out (until a renewal or a returned lease). */
  isExhausted = false;
  isClaiming = false;
  /**
   * The last claim got less than it asked: nothing is free now, so no claim until this lease is spent (then one, which
   * finds anything given back meanwhile, or ends in exhaustion). Claims refused one after another would cost the
   * database a transaction per chunk.
   */
  isDry = false;
  /** Bytes the next claim asks for, and when the last one was granted (performance.now()). */
  slice: number;
  grantedAt = -Infinity;
  /** `carried` at the last heartbeat: unchanged, the token is idle here and its unspent lease goes back. */
  carriedAtBeat = 0;
  /** Bytes taken by the data path, and bytes metered: metered bytes past those taken are taken at the sample. */
  carried = 0;
  metered = 0;
  private waiters: (() => void)[] = [];

  /** A claim starts when `left` falls below this (half a slice): the next lease is usually in hand in time. */
  low: number;

  constructor(
    readonly tokenId: number,
    slice: number,
    private readonly claim: (purse: Purse) => void,
  ) {
    this.slice = slice;
    this.low = slice / 2;
  }

  /** Takes up to `n` bytes: answers how many may pass now (`n`, or fewer when the lease is spent). */
  take(n: number): number {
    const left = this.left;
    if (left >= n) {
      this.left = left - n;
      this.carried += n;
      if (left - n < this.low && !this.isDry) this.claim(this);
      return n;
    }
    const granted = left > 0 ? left : 0;
    this.left = left - granted;
    this.carried += granted;
    this.claim(this);
    return granted;
  }

  /** Calls `then` once the claim under way (or one started now) is settled: take again, or stop when `isExhausted`. */
  wait(then: () => void): void {
    this.waiters.push(then);
    this.claim(this);
  }

  /** A claim was settled: every waiter is told. */
  settle(): void {
    const waiters = this.waiters;
    if (waiters.length === 0) return;
    this.waiters = [];
    for (const then of waiters) then();
  }
}

/**
 * Traffic allowance claimed in leases: a gateway process claims a slice of a
 * traffic token's allowance before it carries bytes of it, and carries no
 * more than it holds. A claim is granted against the allowance no gateway
 * holds (the database's limit minus what is leased, bytes leased but not yet
 * written as used included), so all gateways together carry at most the
 * allowance plus what each metered without taking it first (bounded by one
 * lease each; see docs/gateway.md, "Traffic allowance").
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
  /** Claims, returns and overshoot, for the metrics. */
  counters?: GatewayCounters;
  /** Runs after each heartbeat (the instance row exists then): the pools' health report. Its failure is reported apart. */
  afterBeat?: () => Promise<void>;
}) {
  const { db, leaseBytes } = options;
  const counters = options.counters ?? new GatewayCounters();
  const expiryMs = options.expiryMs ?? 30_000;
  const instanceId = randomUUID();
  const label = `${os.hostname()}:${process.pid}`;
  // One purse per traffic token seen, kept for the process's life: connections hold it.
  const purses = new Map<number, Purse>();
  let beatTimer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | null = null;

  function claim(purse: Purse): void {
    if (purse.isClaiming) return;
    purse.isClaiming = true;
    const asked = purse.slice;
    claimLease(db, instanceId, purse.tokenId, asked).then(
      (granted) => {
        purse.isClaiming = false;
        purse.isDry = granted < asked;
        counters.leaseClaims[granted >= asked ? 'granted' : granted > 0 ? 'partial' : 'refused'] += 1;
        counters.leaseClaimedBytes += granted;
        if (granted > 0) {
          const now = performance.now();
          purse.slice =
            now - purse.grantedAt < FAST_CLAIM_MS
              ? Math.min(purse.slice * 2, MAX_SLICE_LEASES * leaseBytes)
              : leaseBytes;
          purse.low = purse.slice / 2;
          purse.grantedAt = now;
          purse.left += granted;
          purse.isExhausted = false;
        } else if (purse.left <= 0) {
          // What was metered past the last lease has no allowance behind it any more.
          if (!purse.isExhausted) counters.overshootBytes -= purse.left;
          purse.isExhausted = true;
        }
        purse.settle();
      },
      (err: unknown) => {
        counters.leaseClaims.error += 1;
        options.onError(err, 'lease');
        setTimeout(() => {
          purse.isClaiming = false;
          purse.settle();
        }, CLAIM_RETRY_MS).unref();
      },
    );
  }

  function purseOf(token: TTokenRow): Purse | null {
    if (token.trafficLimitBytes === null) return null;
    let purse = purses.get(token.id);
    if (!purse) {
      purse = new Purse(token.id, leaseBytes, claim);
      purses.set(token.id, purse);
    }
    return purse;
  }

  /** Beats, then returns the leases of gateways whose heartbeat is stale. */
  async function beat(): Promise<void> {
    const known = await heartbeat(db, instanceId, label);
    // Swept as stale while alive (cut off longer than the expiry): what it held was returned, claim anew.
    if (!known) for (const purse of purses.values()) purse.left = Math.min(0, purse.left);
    await options.afterBeat?.().catch((err: unknown) => options.onError(err, 'pool-health'));
    await releaseLeases(db, { staleAfterMs: expiryMs });
    // Unspent leases of tokens that carried nothing since the last beat go back (taken from the purse first).
    for (const purse of purses.values()) {
      const isIdle = purse.carried === purse.carriedAtBeat;
      purse.carriedAtBeat = purse.carried;
      if (!isIdle || purse.left <= 0 || purse.isClaiming) continue;
      const bytes = purse.left;
      purse.left = 0;
      purse.slice = leaseBytes;
      purse.low = leaseBytes / 2;
      try {
        await returnLease(db, instanceId, purse.tokenId, bytes);
        counters.leaseReturns.idle += 1;
        counters.leaseReturnedBytes += bytes;
      } catch (err) {
        purse.left += bytes;
        throw err;
      }
    }
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
    /** The purse of a traffic token (null: a token without a traffic cap). */
    purseOf,
    /** Allowance this gateway may still spend: with a lease in hand, what is left of it; without, what no gateway has claimed. */
    allowanceLeft(token: TTokenRow): number {
      if (token.trafficLimitBytes === null) return Infinity;
      const purse = purses.get(token.id);
      if (purse) {
        if (purse.isExhausted) return 0;
        if (purse.left > 0) return purse.left;
      }
      return token.trafficLimitBytes - Math.max(token.trafficLeasedBytes, token.trafficUsedBytes);
    },
    /** Claims more before the lease runs low (a traffic token about to carry bytes). */
    prepare(token: TTokenRow): void {
      const purse = purseOf(token);
      if (purse && (purse.left <= 0 || (purse.left < purse.low && !purse.isDry))) claim(purse);
    },
    /** Metered bytes: what the data path did not take from the purse first (heads, early bytes) is taken now. */
    metered(token: TTokenRow, bytes: number): void {
      const purse = purseOf(token);
      if (!purse) return;
      purse.metered += bytes;
      if (purse.metered > purse.carried) {
        // Past the allowance: the token's last claim was refused, and these bytes were carried all the same.
        if (purse.isExhausted) counters.overshootBytes += purse.metered - purse.carried;
        purse.left -= purse.metered - purse.carried;
        purse.carried = purse.metered;
        if (purse.left <= 0 || (purse.left < purse.low && !purse.isDry)) claim(purse);
      }
    },
    /**
     * Bytes the data path took from the purse that are not charged after all (lost before the upstream answered):
     * given back, so this process may carry them again.
     */
    giveBack(token: TTokenRow, bytes: number): void {
      const purse = purseOf(token);
      if (!purse) return;
      const n = Math.min(bytes, purse.carried - purse.metered);
      if (n <= 0) return;
      purse.carried -= n;
      purse.left += n;
    },
    /** A changed row (renewal, new limit) may lift exhaustion. */
    onToken(row: TTokenRow): void {
      if (
        row.trafficLimitBytes !== null &&
        Math.max(row.trafficLeasedBytes, row.trafficUsedBytes) < row.trafficLimitBytes
      ) {
        const purse = purses.get(row.id);
        if (purse) {
          purse.isExhausted = false;
          purse.isDry = false;
        }
      }
    },
    /** Stops beating and gives back every unspent lease (clean stop, after the last flush). */
    async returnAll(): Promise<void> {
      clearInterval(beatTimer);
      await beating;
      await releaseLeases(db, { staleAfterMs: expiryMs, instanceId });
      for (const purse of purses.values()) {
        if (purse.left <= 0) continue;
        counters.leaseReturns.stop += 1;
        counters.leaseReturnedBytes += purse.left;
        purse.left = 0;
      }
    },
  };
}

/** The leases type. */
export type TLeases = ReturnType<typeof createLeases>;
