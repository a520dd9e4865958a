import type net from 'node:net';
import type { TAuthorizer, TGrant } from './authorizer';
import type { TConnectionRegistry } from './connection-registry';
import { dialRefusal, dialThroughExit, type TTarget } from './egress';
import { GatewayRefusal, httpRefusal, type TRefusal } from './refusals';
import type { TEchoTarget, TTargetGuard } from './target-policy';

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

/** What every protocol module works with. */
export type TGatewayContext = {
  authorizer: TAuthorizer;
  registry: TConnectionRegistry;
  guard: TTargetGuard;
  handshakeTimeoutMs: number;
  connectTimeoutMs: number;
};

/**
 * Dials the target through the grant's exits in order (dynamic tokens fall
 * back to the next exit; a failed one is reported). Resolves the socket, or
 * rejects with the refusal to report.
 */
export async function dialFor(ctx: TGatewayContext, conn: Connection, grant: TGrant, target: TTarget, isEcho = false): Promise<net.Socket> {
  let lastError: unknown = null;
  try {
    for (const exit of grant.exits) {
      conn.deadline = ctx.registry.clock() + ctx.connectTimeoutMs;
      try {
        return await dialThroughExit(exit, target, isEcho ? null : ctx.guard, ctx.connectTimeoutMs, conn, grant.targetRules ?? null);
      } catch (err) {
        lastError = err;
        if (err instanceof GatewayRefusal && (err.reason === 'target-refused' || err.reason === 'target-blocked-by-rule')) break;
        if (conn.socket.destroyed) break;
        grant.onExitFailed?.(exit);
      }
    }
  } finally {
    conn.dialing = null;
    conn.deadline = Infinity;
  }
  throw dialRefusal(lastError);
}

const kPeer = Symbol('peer');
type TJoined = net.Socket & { [kPeer]?: net.Socket };

// The tunnel's relay, one set of functions for every tunnel (no closures per connection): bytes go to
// the other side, reading pauses while the other side's buffer is full, an end is passed on.
function relayData(this: TJoined, chunk: Buffer): void {
  if (!this[kPeer]!.write(chunk)) this.pause();
}
function resumePeer(this: TJoined): void {
  this[kPeer]!.resume();
}
function endPeer(this: TJoined): void {
  this[kPeer]!.end();
}
function dropData(): void {}
function onTunnelError(this: TJoined): void {
  this[kPeer]?.destroy();
}
// The other side ends once what it still has to write is out.
function onTunnelClose(this: TJoined): void {
  this[kPeer]?.destroySoon();
}

/**
 * Joins client and destination; either side closing closes both. `early`:
 * bytes the client sent before the tunnel opened. `isOneWay`: the client's
 * further bytes are dropped (the echo).
 */
export function joinTunnel(conn: Connection, upstream: net.Socket, early: Buffer | null, isOneWay = false): void {
  const client = conn.socket as TJoined;
  const target = upstream as TJoined;
  conn.peer = upstream;
  conn.deadline = Infinity;
  client[kPeer] = target;
  target[kPeer] = client;
  target.on('error', onTunnelError);
  client.on('error', onTunnelError);
  target.once('close', onTunnelClose);
  client.once('close', onTunnelClose);
  if (early?.length) target.write(early);
  target.on('data', relayData);
  target.on('drain', resumePeer);
  target.once('end', endPeer);
  if (isOneWay) {
    client.on('data', dropData);
  } else {
    client.on('data', relayData);
    client.on('drain', resumePeer);
    client.once('end', endPeer);
  }
  target.resume();
  client.resume();
}

// Inside a tunnel to an echo, only `GET <echo path>` without a body passes.
function isEchoRequest(head: string, echo: TEchoTarget): boolean {
  const lines = head.split('\r\n');
  const requestLine = /^GET (\/\S*) HTTP\/1\.[01]$/.exec(lines[0]);
  if (!requestLine || requestLine[1].split('?')[0] !== echo.path) return false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === 'transfer-encoding' || (name === 'content-length' && line.slice(colon + 1).trim() !== '0')) return false;
  }
  return true;
}

// Longest request head read inside an echo tunnel.
const HEAD_LIMIT = 16 * 1024;

/**
 * A tunnel (CONNECT or SOCKS5) to an echo: accepted at once, then one
 * request head is read from the client. A GET of the echo's path is dialled
 * and forwarded and its answer relayed; nothing else reaches the listener.
 */
export function startEchoTunnel(
  ctx: TGatewayContext,
  conn: Connection,
  grant: TGrant,
  target: TTarget,
  echo: TEchoTarget,
  early: Buffer,
  accept: () => void,
): void {
  const socket = conn.socket;
  accept();
  let buf = early;
  conn.deadline = ctx.registry.clock() + ctx.handshakeTimeoutMs;
  const finish = (head: Buffer | null) => {
    socket.removeListener('data', onData);
    socket.pause();
    if (!head) return void socket.end(httpRefusal('target-refused'));
    dialFor(ctx, conn, grant, target, true).then(
      (upstream) => {
        if (socket.destroyed) return upstream.destroy();
        joinTunnel(conn, upstream, head, true);
      },
      (err: GatewayRefusal) => socket.end(httpRefusal(err.reason)),
    );
  };
  const step = () => {
    const end = buf.indexOf('\r\n\r\n');
    if (end === -1) {
      if (buf.length > HEAD_LIMIT) finish(null);
      return;
    }
    finish(isEchoRequest(buf.toString('latin1', 0, end), echo) ? buf.subarray(0, end + 4) : null);
  };
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    step();
  };
  socket.on('data', onData);
  socket.resume();
  step();
}
