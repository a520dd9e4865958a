import type net from 'node:net';
import type { TExit, TTarget } from './egress';
import type { TCarrierTally, TDomainTally } from './meter';
import type { Purse } from './leases';
import type { TRefusal } from './refusals';

/**
 * One client connection, whatever protocol it speaks: its socket, the token
 * it is bound to, what has been metered, and the destination side. Protocol
 * modules (http-forward.ts, http-connect.ts, socks5-server.ts) drive it; the
 * connection registry samples, re-checks and sweeps it.
 */
export class Connection {
  /** The token whose connection slot this holds (set by the registry's admit). */
  tokenId: number | null = null;
  /** Bytes (read + written) of the client socket already metered or excluded (handshakes, refused requests). */
  counted = 0;
  /** The traffic token's purse (null: no traffic cap): the relays take from it before they pass bytes on. */
  purse: Purse | null = null;
  /** The destination side, destroyed with the client. */
  peer: net.Socket | null = null;
  /** A socket being dialled for this client: destroyed at the deadline. */
  dialing: net.Socket | null = null;
  /**
   * A CONNECT or SOCKS5 handshake, or a forwarded request not answered yet: nothing is metered
   * until the tunnel is accepted or the answer begins (a refusal is never metered).
   */
  isHeld = false;
  /** When the pending handshake, request head or dial must be done (registry clock); Infinity when nothing is pending. */
  deadline: number;
  /** Idle sweep: the byte total at the last sweep, and when it last changed. */
  lastTotal = 0;
  lastActive: number;

  // --- the usage log (usage-log.ts): one record at close, kept for opted-in owners only ---
  /** Of `counted`, the bytes read from the client: the rest were written to it. */
  countedUp = 0;
  /** Metered bytes of this connection: read from the client (up) and written to it (down). */
  bytesUp = 0;
  bytesDown = 0;
  /** The token the connection was for, kept after its slot is given back (null: none identified). */
  logTokenId: number | null = null;
  /** How the client spoke: 0 HTTP forward, 1 CONNECT, 2 SOCKS5. */
  protocol: 0 | 1 | 2 = 0;
  /** The destination asked for (the last one, for HTTP forward on a kept-alive connection). */
  targetHost = '';
  targetPort = 0;
  /** Wall-clock start (ms since the epoch). */
  readonly startedAt = Date.now();
  /** Why the gateway refused or cut the connection (null: it closed normally). */
  endReason: TRefusal | null = null;
  /** Cut while carrying traffic (exhaustion, expiry, disabling), not refused at a request. */
  isCut = false;
  // --- attribution (meter.ts) and the usage log's carrier ---
  /** What carries the connection's bytes now: the exit or pool its last dial went through (null: none yet). */
  carrier: TExit | null = null;
  /** The country of the area the connection was for ('' when none): attribution's area. */
  areaCountry = '';
  /** The meter's tally the bytes are added to (of the token, carrier and country; null: looked up at the next sample). */
  tally: TCarrierTally | null = null;
  /** A sticky session left by another carrier than its first choice (a skipped or failing pool or exit). */
  exitChanged = false;
  // --- bytes not charged (docs/gateway.md, "Bytes not charged") ---
  /**
   * False while a tunnel through an upstream (a pool, or an upstream proxy exit) has had no byte back from it: the
   * client's bytes wait unmetered (up to UNANSWERED_MAX_BYTES), charged once the answer begins, not charged when
   * the upstream side ends first (`isLost`).
   */
  isAnswered = true;
  /** The upstream side ended, failed or went idle before it answered: the waiting bytes are metered as not charged. */
  isLost = false;
  /** Of bytesUp + bytesDown, those metered as not charged. */
  bytesUncharged = 0;

  /** The sticky session window the connection belongs to (sticky-sessions.ts; null: none, or not reported). */
  stickyKey: string | null = null;

  /** Told when the gateway starts draining (set by a protocol whose connection can end early: HTTP forward). */
  onDrain: (() => void) | null = null;

  constructor(
    readonly socket: net.Socket,
    readonly sourceIp: string,
    now: number,
    handshakeMs: number,
  ) {
    this.deadline = now + handshakeMs;
    this.lastActive = now;
  }

  /** The target's registrable domain (usage by domain), worked out at the first metered bytes; null: not yet. */
  domain: string | null = null;
  /** The meter's tally of the token and domain the bytes are added to (null: looked up at the next sample). */
  domainTally: TDomainTally | null = null;

  /** Where the client asked to go (the usage log, usage by domain). */
  setTarget(target: TTarget): void {
    this.targetHost = target.host;
    this.targetPort = target.port;
    this.domain = null;
    this.domainTally = null;
  }

  /** Metering starts here: the client's `read` bytes and the `written` bytes so far are not the customer's (handshakes). */
  meterFrom(read: number, written: number): void {
    this.counted = read + written;
    this.countedUp = read;
  }

  /** Closes the client and its destination side. */
  destroy(): void {
    this.dialing?.destroy();
    this.peer?.destroy();
    this.socket.destroy();
  }

  /** Cuts the connection while it carries traffic (exhaustion, expiry, disabling). */
  cut(reason: TRefusal): void {
    this.endReason = reason;
    this.isCut = true;
    this.destroy();
  }

  /** The deadline passed: a dial in progress fails as timed out, anything else closes. */
  expire(): void {
    if (this.dialing) {
      const error = Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' });
      this.dialing.destroy(error);
      this.dialing = null;
      this.deadline = Infinity;
      return;
    }
    this.destroy();
  }
}
