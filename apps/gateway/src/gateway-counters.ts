import { REFUSALS, type TRefusal } from './refusals';

/** How a client spoke: HTTP forward, CONNECT, SOCKS5 (the index is Connection.protocol). */
export const PROTOCOLS = ['http', 'connect', 'socks5'] as const;
/** How an exit leaves: from the gateway host, through an upstream HTTP or SOCKS5 proxy, or through an upstream pool. */
export const EGRESS_KINDS = ['direct', 'http', 'socks5', 'pool'] as const;
/** One of EGRESS_KINDS. */
export type TEgressKind = (typeof EGRESS_KINDS)[number];

function zeroByReason(): Record<TRefusal, number> {
  return Object.fromEntries(Object.keys(REFUSALS).map((reason) => [reason, 0])) as Record<TRefusal, number>;
}

/**
 * Totals the gateway keeps as plain numbers where they happen (an addition,
 * never a label lookup or a call into the metrics library on the data path),
 * read by the metrics when scraped (metrics.ts). Bytes are added per sample
 * of a connection's socket counters, not per chunk.
 */
export class GatewayCounters {
  /** Connections whose first byte said their protocol, by PROTOCOLS index. */
  readonly accepted = [0, 0, 0];
  /** Metered bytes: read from clients (up) and written to them (down). */
  bytesUp = 0;
  bytesDown = 0;
  /** Connections refused (before carrying traffic) and cut (while carrying it), by reason. */
  readonly refusals = zeroByReason();
  readonly cuts = zeroByReason();
  /** Lease claims by outcome, and the bytes they were granted. */
  readonly leaseClaims = { granted: 0, partial: 0, refused: 0, error: 0 };
  leaseClaimedBytes = 0;
  /** Leases given back: a token idle for a heartbeat, and every lease at a clean stop; and their bytes. */
  readonly leaseReturns = { idle: 0, stop: 0 };
  leaseReturnedBytes = 0;
  /** Bytes metered for traffic tokens past their allowance (after the last claim was refused). */
  overshootBytes = 0;
  /** Dials through an exit that failed (the destination or the upstream did not answer), by egress kind. */
  readonly dialFailures: Record<TEgressKind, number> = { direct: 0, http: 0, socks5: 0, pool: 0 };
  /** Usage flushes (metered bytes and usage-log rows written) by outcome. */
  readonly flushes = { ok: 0, failed: 0 };
  /** Told the time of each dial that reached its destination (one call per connection; the metrics set it). */
  observeDial: (kind: TEgressKind, seconds: number) => void = () => {};
}
