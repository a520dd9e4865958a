import { dialFor, joinTunnel, startEchoTunnel, type Connection, type TGatewayContext } from './connection';
import type { TTarget } from './egress';
import { parseBasic } from './http-head';
import { httpRefusal, type GatewayRefusal, type TRefusal } from './refusals';

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

/**
 * A connection that opens with CONNECT: one head is read from `first` and
 * what follows (no HTTP server object), then a raw tunnel.
 */
export function handleConnect(ctx: TGatewayContext, conn: Connection, first: Buffer): void {
  const socket = conn.socket;
  let buf = first;
  const step = () => {
    const end = buf.indexOf('\r\n\r\n');
    if (end === -1) {
      if (buf.length > HEAD_LIMIT) {
        socket.removeListener('data', onData);
        socket.end(httpRefusal('bad-request'));
      }
      return;
    }
    socket.removeListener('data', onData);
    const head = buf.toString('latin1', 0, end);
    const lines = head.split('\r\n');
    const requestLine = /^CONNECT (\S+) HTTP\/1\.[01]$/.exec(lines[0]);
    if (!requestLine) return void socket.end(httpRefusal('bad-request'));
    let auth: string | undefined;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(':');
      if (colon === 19 && line.slice(0, colon).toLowerCase() === 'proxy-authorization') auth = line.slice(colon + 1).trim();
    }
    openConnectTunnel(ctx, conn, requestLine[1], auth, buf.subarray(end + 4), end + 4);
  };
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    step();
  };
  socket.on('data', onData);
  step();
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
  const socket = conn.socket;
  ctx.registry.sample(conn);
  conn.isOpeningTunnel = true;
  const refuse = (reason: TRefusal) => {
    ctx.registry.release(conn);
    socket.end(httpRefusal(reason));
  };
  const target = splitHostPort(authority);
  if (!target) return refuse('bad-request');
  socket.pause();
  const creds = parseBasic(authHeader);
  ctx.registry.admit(conn, creds && { ...creds, protocol: 'http', sourceIp: conn.sourceIp }, (grant) => {
    if (typeof grant === 'string') return refuse(grant);
    const accept = () => {
      socket.write(CONNECT_OK);
      // Metering starts after the handshake: the CONNECT head and this reply are not counted.
      conn.counted = handshakeRead + socket.bytesWritten;
      conn.isOpeningTunnel = false;
    };
    const echo = ctx.guard.echoAt(target.host, target.port);
    if (echo) return startEchoTunnel(ctx, conn, grant, target, echo, early, accept);
    dialFor(ctx, conn, grant, target).then(
      (upstream) => {
        if (socket.destroyed) return upstream.destroy();
        accept();
        joinTunnel(conn, upstream, early);
      },
      (err: GatewayRefusal) => refuse(err.reason),
    );
  });
}
