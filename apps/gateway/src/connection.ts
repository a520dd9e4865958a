import type net from 'node:net';
import type { TExit, TTarget } from './egress';
import type { TCarrierTally } from './meter';
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

  /** Where the client asked to go (the usage log). */
  setTarget(target: TTarget): void {
    this.targetHost = target.host;
    this.targetPort = target.port;
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
