import type { TAdmittedAs, TAuthorizer, TCredentials, TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TExit } from './egress';
import { createLocalLimiter, type TConnectionLimiter } from './connection-limits';
import { GatewayCounters } from './gateway-counters';
import type { TMeter } from './meter';
import type { TRefusal } from './refusals';
import type { TUsageLogSink } from './usage-log';

/**
 * Most client bytes a tunnel through an upstream holds unmetered while the upstream has not answered: past this,
 * they are charged whatever happens (so a client cannot send unbounded bytes free to a target that never answers).
 */
export const UNANSWERED_MAX_BYTES = 64 * 1024;

/** Told the outcome of an admission: the grant, or the refusal. */
type TAdmitted = (result: TGrant | TRefusal) => void;

/** Settings of the registry. */
export type TConnectionRegistryOptions = {
  authorizer: TAuthorizer;
  meter: TMeter;
  /** Simultaneous connections per token (default: counted in this process). */
  limiter?: TConnectionLimiter;
  /** How often byte counters are sampled, live connections re-checked and deadlines swept. */
  sampleIntervalMs: number;
  /** Connections with no byte either way for this long are closed. */
  idleTimeoutMs: number;
  /** Told of every closed connection of an identified token (the per-connection usage log). */
  usageLog?: TUsageLogSink;
  /** Totals for the metrics: bytes metered, refusals and cuts. */
  counters?: GatewayCounters;
};

/**
 * Every open client connection: which token each is bound to (one of the
 * token's simultaneous-connection slots), its bytes sampled from the socket
 * counters into the meter, and one sweep each interval that re-checks bound
 * connections, enforces deadlines (handshakes, request heads, dials) and
 * closes idle ones. No timer per socket.
 */
export function createConnectionRegistry(options: TConnectionRegistryOptions) {
  const { authorizer, meter, idleTimeoutMs, usageLog } = options;
  const limiter = options.limiter ?? createLocalLimiter();
  const counters = options.counters ?? new GatewayCounters();
  const conns = new Set<Connection>();
  // Draining (a clean stop): no new connections come; who waits to hear that the last open one has closed.
  let isDraining = false;
  let onEmpty: (() => void) | null = null;
  // The credentials each bound connection was last admitted with: the sweep cuts it once its token's have changed.
  const admittedAs = new WeakMap<Connection, TAdmittedAs>();
  let clock = performance.now();

  /**
   * Meters the connection's new bytes. A tunnel through an upstream that has not answered yet keeps its bytes
   * waiting (at most UNANSWERED_MAX_BYTES): charged once the answer begins, past that bound, or when the client ends
   * it; not charged when the upstream ended, failed or went idle first (`isFinal`: the connection has closed).
   */
  function sample(conn: Connection, isFinal = false): void {
    if (conn.isHeld) return;
    const read = conn.socket.bytesRead;
    const total = read + conn.socket.bytesWritten;
    if (conn.tokenId !== null && total > conn.counted) {
      let isCharged = true;
      if (!conn.isAnswered) {
        const waiting = total - conn.counted;
        if (!isFinal && waiting <= UNANSWERED_MAX_BYTES) return;
        if (isFinal && conn.isLost && waiting <= UNANSWERED_MAX_BYTES) isCharged = false;
        else conn.isAnswered = true;
      }
      const up = read - conn.countedUp;
      meter.record(conn.tokenId, total - conn.counted, conn, isCharged);
      if (!isCharged) conn.bytesUncharged += total - conn.counted;
      conn.bytesUp += up;
      conn.bytesDown += total - conn.counted - up;
      counters.bytesUp += up;
      counters.bytesDown += total - conn.counted - up;
    }
    conn.counted = total;
    conn.countedUp = read;
  }

  function unbind(conn: Connection): void {
    if (conn.tokenId === null) return;
    sample(conn);
    limiter.release(conn.tokenId);
    conn.tokenId = null;
  }

  function sweep(): void {
    clock = performance.now();
    for (const conn of conns) {
      if (conn.tokenId !== null) {
        sample(conn);
        const refusal = authorizer.findRefusal(conn.tokenId, conn.sourceIp, admittedAs.get(conn));
        if (refusal) {
          conn.endReason = refusal;
          conn.isCut = true;
          conn.destroy();
          continue;
        }
      }
      if (conn.deadline < clock) {
        conn.expire();
        continue;
      }
      const { socket, peer } = conn;
      const total = socket.bytesRead + socket.bytesWritten + (peer ? peer.bytesRead + peer.bytesWritten : 0);
      if (total !== conn.lastTotal) {
        conn.lastTotal = total;
        conn.lastActive = clock;
      } else if (clock - conn.lastActive >= idleTimeoutMs) {
        // An upstream that never answered: the waiting bytes are lost on its side.
        if (!conn.isAnswered) conn.isLost = true;
        conn.destroy();
      }
    }
  }
  // Binds the connection to the granted token: one of its simultaneous-connection slots (asked of the primary when clustered).
  function bind(conn: Connection, result: TGrant | TRefusal, then: TAdmitted, credentials: TCredentials): void {
    if (conn.socket.destroyed) return;
    if (typeof result === 'string') {
      conn.endReason = result;
      // The right credentials of a token that may not carry traffic now: its owner sees the refusal in the log.
      if (usageLog && result !== 'bad-credentials' && result !== 'auth-required')
        conn.logTokenId = usageLog.tokenOf(credentials) ?? conn.logTokenId;
      return then(result);
    }
    if (conn.tokenId === result.tokenId) {
      remember(conn, result);
      return then(result);
    }
    const slot = limiter.acquire(result.tokenId, result.maxConnections);
    if (slot instanceof Promise) {
      slot.then(
        (isTaken) => take(conn, result, isTaken, then),
        () => take(conn, result, false, then),
      );
    } else {
      take(conn, result, slot, then);
    }
  }

  function take(conn: Connection, grant: TGrant, isTaken: boolean, then: TAdmitted): void {
    if (!isTaken) {
      conn.endReason = 'too-many-connections';
      conn.logTokenId = grant.tokenId;
      return then('too-many-connections');
    }
    if (conn.socket.destroyed) return limiter.release(grant.tokenId);
    unbind(conn);
    conn.tokenId = grant.tokenId;
    conn.logTokenId = grant.tokenId;
    remember(conn, grant);
    then(grant);
  }

  function remember(conn: Connection, grant: TGrant): void {
    if (grant.admittedAs) admittedAs.set(conn, grant.admittedAs);
    else admittedAs.delete(conn);
  }

  const timer = setInterval(sweep, options.sampleIntervalMs);
  timer.unref();

  return {
    /** The sweep's clock (ms, performance.now() at the last sweep): deadlines are set against it. */
    clock: () => clock,
    add(conn: Connection): void {
      conns.add(conn);
    },
    /** The client socket closed: its last bytes are metered and its slot given back. */
    remove(conn: Connection): void {
      sample(conn, true);
      unbind(conn);
      if (conn.logTokenId !== null) meter.closed?.(conn.logTokenId, conn);
      conns.delete(conn);
      // One refusal or cut per connection: a refused client's connection is closed with its answer.
      if (conn.endReason !== null) (conn.isCut ? counters.cuts : counters.refusals)[conn.endReason] += 1;
      if (usageLog && conn.logTokenId !== null) usageLog.closed(conn);
      if (conns.size === 0) onEmpty?.();
    },
    sample,
    /** Bytes exchanged with a pool in a dial of this connection that failed: metered on the pool, not charged. */
    lost(conn: Connection, carrier: TExit, country: string, bytes: number): void {
      if (conn.tokenId === null) return;
      meter.lost?.(conn.tokenId, bytes, carrier, country, conn);
      conn.bytesUncharged += bytes;
      conn.bytesUp += bytes;
    },
    /** Gives the slot back now, metering nothing more (a refused request's bytes are not the customer's); `reason`: the refusal, for the usage log. */
    release(conn: Connection, reason?: TRefusal): void {
      if (reason) conn.endReason = reason;
      if (conn.tokenId === null) return;
      conn.meterFrom(conn.socket.bytesRead, conn.socket.bytesWritten);
      limiter.release(conn.tokenId);
      conn.tokenId = null;
    },
    /**
     * Authorizes and binds the connection to the token, then calls `then`. The
     * answer is usually immediate (the in-memory copy); credentials the copy
     * does not accept may be looked up once in the database first, and a
     * clustered gateway asks its primary for the slot. Nothing is called for a
     * client that left meanwhile.
     */
    admit(conn: Connection, credentials: TCredentials | null, then: TAdmitted): void {
      if (!credentials) return then('auth-required');
      const result = authorizer.authorize(credentials);
      if (result instanceof Promise) {
        result.then(
          (answer) => bind(conn, answer, then, credentials),
          () => bind(conn, 'bad-credentials', then, credentials),
        );
      } else {
        bind(conn, result, then, credentials);
      }
    },
    /** Open client connections. */
    count: () => conns.size,
    /** Meters every open connection now. */
    sampleAll(): void {
      for (const conn of conns) sample(conn);
    },
    /** True once draining began: an HTTP forward answer then closes its connection (`Connection: close`). */
    isDraining: () => isDraining,
    /**
     * The listener has stopped: tells every open connection (HTTP forward closes one waiting between requests
     * at once, and any other after the answer in progress); resolves once none is open. Tunnels run on.
     */
    drain(): Promise<void> {
      isDraining = true;
      for (const conn of conns) conn.onDrain?.();
      if (conns.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        onEmpty = () => {
          onEmpty = null;
          resolve();
        };
      });
    },
    /** Stops the sweep, meters and closes every connection. */
    closeAll(): void {
      clearInterval(timer);
      for (const conn of conns) {
        sample(conn);
        conn.destroy();
      }
    },
  };
}

/** The registry type. */
export type TConnectionRegistry = ReturnType<typeof createConnectionRegistry>;
