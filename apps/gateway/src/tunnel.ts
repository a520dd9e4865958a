import type net from 'node:net';
import type { TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TTarget } from './egress';
import { dialFor, type TGatewayContext } from './gateway-context';
import type { Purse } from './leases';
import { httpRefusal, type GatewayRefusal } from './refusals';
import type { TEchoTarget } from './target-policy';

const kPeer = Symbol('peer');
const kConn = Symbol('connection');
const kHeld = Symbol('held');
type TJoined = net.Socket & { [kPeer]?: net.Socket; [kConn]?: Connection; [kHeld]?: Buffer };

// The tunnel's relay, one set of functions for every tunnel (no closures per connection): bytes go to
// the other side, reading pauses while the other side's buffer is full, an end is passed on. A traffic
// token's bytes are taken from its purse first; what the purse cannot give now is held, reading paused,
// until the next lease is claimed (or, refused, the connection is cut).
function relayData(this: TJoined, chunk: Buffer): void {
  const purse = this[kConn]!.purse;
  if (purse !== null) {
    if (this[kHeld] !== undefined) return hold(this, chunk, purse);
    const n = purse.take(chunk.length);
    if (n < chunk.length) {
      if (n > 0) this[kPeer]!.write(chunk.subarray(0, n));
      return hold(this, chunk.subarray(n), purse);
    }
  }
  if (!this[kPeer]!.write(chunk)) this.pause();
}
function hold(socket: TJoined, rest: Buffer, purse: Purse): void {
  const held = socket[kHeld];
  socket[kHeld] = held ? Buffer.concat([held, rest]) : rest;
  socket.pause();
  if (!held) purse.wait(() => release(socket, purse));
}
// The claim is settled: the held bytes go on (as far as the purse gives), or the connection is cut.
function release(socket: TJoined, purse: Purse): void {
  const held = socket[kHeld]!;
  socket[kHeld] = undefined;
  const peer = socket[kPeer]!;
  if (peer.destroyed) return;
  if (purse.isExhausted) return socket[kConn]!.cut('token-exhausted');
  relayData.call(socket, held);
  if (socket[kHeld] !== undefined) return;
  // An end or a close that came while bytes were held is passed on now.
  if (socket.destroyed) peer.destroySoon();
  else if (socket.readableEnded) peer.end();
  else if (!peer.writableNeedDrain) socket.resume();
}
function resumePeer(this: TJoined): void {
  this[kPeer]!.resume();
}
function endPeer(this: TJoined): void {
  if (this[kHeld] === undefined) this[kPeer]!.end();
}
function dropData(): void {}
// Bytes not charged: the first byte back from an upstream answers the tunnel; its end or failure before that loses it.
function onAnswered(this: TJoined): void {
  this[kConn]!.isAnswered = true;
}
function onLostIfUnanswered(this: TJoined): void {
  const conn = this[kConn]!;
  if (!conn.isAnswered && !conn.socket.destroyed) conn.isLost = true;
}
function onTunnelError(this: TJoined): void {
  this[kPeer]?.destroy();
}
// The other side ends once what it still has to write is out.
function onTunnelClose(this: TJoined): void {
  if (this[kHeld] === undefined) this[kPeer]?.destroySoon();
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
  client[kConn] = conn;
  target[kConn] = conn;
  // Through an upstream (a pool or an upstream proxy), the client's bytes are charged once the upstream answers.
  if (conn.carrier !== null && conn.carrier.kind !== 'direct' && !isOneWay) {
    conn.isAnswered = false;
    target.once('data', onAnswered);
    target.once('end', onLostIfUnanswered);
    target.once('error', onLostIfUnanswered);
  }
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
    if (name === 'transfer-encoding' || (name === 'content-length' && line.slice(colon + 1).trim() !== '0'))
      return false;
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
