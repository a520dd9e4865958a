import type { Connection } from './connection';
import type { TTarget } from './egress';
import { dialFor, type TGatewayContext } from './gateway-context';
import { parseBasic } from './http-head';
import { httpRefusal, type GatewayRefusal, type TRefusal } from './refusals';
import { joinTunnel, startEchoTunnel } from './tunnel';

const CONNECT_OK = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n', 'latin1');
// Longest CONNECT head accepted.
const HEAD_LIMIT = 16 * 1024;

/** host:port or [v6]:port of a CONNECT request. */
export function splitHostPort(authority: string): TTarget | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1] ?? m[2], port };
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
// The usual spelling of the header, found without decoding the head.
const AUTH_HEADER = Buffer.from('\r\nProxy-Authorization:', 'latin1');
const REQUEST_LINE = /^CONNECT (\S+) HTTP\/1\.[01]$/;

/**
 * A connection that opens with CONNECT: one head is read from `first` and
 * what follows (no HTTP server object), then a raw tunnel.
 */
export function handleConnect(ctx: TGatewayContext, conn: Connection, first: Buffer): void {
  if (first.indexOf(HEAD_END) !== -1) return onConnectHead(ctx, conn, first);
  // The head comes in pieces (rare): gather them.
  const socket = conn.socket;
  let buf = first;
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (buf.indexOf(HEAD_END) !== -1) {
      socket.removeListener('data', onData);
      onConnectHead(ctx, conn, buf);
    } else if (buf.length > HEAD_LIMIT) {
      socket.removeListener('data', onData);
      socket.end(httpRefusal('bad-request'));
    }
  };
  socket.on('data', onData);
}

// The CONNECT head is complete in `buf`: the request line, and the Proxy-Authorization header.
function onConnectHead(ctx: TGatewayContext, conn: Connection, buf: Buffer): void {
  const end = buf.indexOf(HEAD_END);
  if (end > HEAD_LIMIT) return void conn.socket.end(httpRefusal('bad-request'));
  const lineEnd = buf.indexOf(CRLF);
  const requestLine = REQUEST_LINE.exec(buf.toString('latin1', 0, lineEnd));
  if (!requestLine) return void conn.socket.end(httpRefusal('bad-request'));
  let auth: string | undefined;
  const at = buf.indexOf(AUTH_HEADER, lineEnd);
  if (at !== -1 && at < end) {
    const from = at + AUTH_HEADER.length;
    auth = buf.toString('latin1', from, buf.indexOf(CRLF, from)).trim();
  } else {
    // Another spelling of the name: read the header lines.
    for (const line of buf.toString('latin1', lineEnd + 2, end).split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon === 19 && line.slice(0, colon).toLowerCase() === 'proxy-authorization')
        auth = line.slice(colon + 1).trim();
    }
  }
  openConnectTunnel(ctx, conn, requestLine[1], auth, buf.subarray(end + 4), end + 4);
}

/**
 * Opens a CONNECT tunnel (also after plain requests on a kept-alive
 * connection). `handshakeRead`: the client's bytes up to the end of the
 * CONNECT head; `early`: bytes it sent after it.
 */
export function openConnectTunnel(
  ctx: TGatewayContext,
  conn: Connection,
  authority: string,
  authHeader: string | undefined,
  early: Buffer,
  handshakeRead: number,
): void {
  ctx.registry.sample(conn);
  conn.isHeld = true;
  conn.protocol = 1;
  const target = splitHostPort(authority);
  if (!target) return refuse(ctx, conn, 'bad-request');
  conn.setTarget(target);
  conn.socket.pause();
  const creds = parseBasic(authHeader);
  const credentials = creds && {
    username: creds.username,
    password: creds.password,
    protocol: 'http' as const,
    sourceIp: conn.sourceIp,
  };
  ctx.registry.admit(conn, credentials, (grant) => {
    if (typeof grant === 'string') return refuse(ctx, conn, grant);
    conn.purse = grant.purse ?? null;
    const echo = ctx.guard.echoAt(target.host, target.port);
    if (echo) return startEchoTunnel(ctx, conn, grant, target, echo, early, () => accept(conn, handshakeRead));
    dialFor(ctx, conn, grant, target).then(
      (upstream) => {
        if (conn.socket.destroyed) return upstream.destroy();
        accept(conn, handshakeRead);
        joinTunnel(conn, upstream, early);
      },
      (err: GatewayRefusal) => refuse(ctx, conn, err.reason),
    );
  });
}

function accept(conn: Connection, handshakeRead: number): void {
  conn.socket.write(CONNECT_OK);
  // Metering starts after the handshake: the CONNECT head and this reply are not counted.
  conn.meterFrom(handshakeRead, conn.socket.bytesWritten);
  conn.isHeld = false;
}

function refuse(ctx: TGatewayContext, conn: Connection, reason: TRefusal): void {
  ctx.registry.release(conn, reason);
  conn.socket.end(httpRefusal(reason));
}
