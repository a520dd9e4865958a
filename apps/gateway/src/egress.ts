import net from 'node:net';
import { GatewayRefusal } from './refusals';
import { SOCKS_REPLY, buildConnectRequest, buildUserPass } from './socks5';
import type { TTargetGuard } from './target-policy';

/** Where a connection leaves for the internet: the gateway host itself, or an upstream proxy. */
export type TExit = { id: number; kind: 'direct' } | TUpstreamExit;

/** An upstream proxy exit (HTTP CONNECT or SOCKS5). */
export type TUpstreamExit = { id: number; kind: 'http' | 'socks5'; host: string; port: number; username?: string; password?: string };

/** A destination as the client asked for it. */
export type TTarget = { host: string; port: number };

const HEAD_LIMIT = 16 * 1024;

function connectSocket(options: net.NetConnectOpts, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new GatewayRefusal('upstream-failed', SOCKS_REPLY.ttlExpired));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(socket);
    });
    const onError = (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      if (err instanceof GatewayRefusal) return reject(err);
      const code =
        err.code === 'ECONNREFUSED' ? SOCKS_REPLY.connectionRefused : err.code === 'ENETUNREACH' ? SOCKS_REPLY.networkUnreachable : SOCKS_REPLY.hostUnreachable;
      reject(new GatewayRefusal('upstream-failed', code));
    };
    socket.once('error', onError);
  });
}

/** Reads from the socket until `isComplete` says the bytes so far hold a whole message. */
function readUntil(socket: net.Socket, isComplete: (buf: Buffer) => number | null, timeoutMs: number): Promise<{ message: Buffer; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new GatewayRefusal('upstream-failed', SOCKS_REPLY.ttlExpired)), timeoutMs);
    const finish = (err: Error | null, used?: number) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('error', onFail);
      socket.removeListener('close', onFail);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        socket.pause();
        resolve({ message: buf.subarray(0, used), rest: buf.subarray(used) });
      }
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const used = isComplete(buf);
      if (used !== null) return finish(null, used);
      if (buf.length > HEAD_LIMIT) finish(new GatewayRefusal('upstream-failed'));
    };
    const onFail = () => finish(new GatewayRefusal('upstream-failed'));
    socket.on('data', onData);
    socket.once('error', onFail);
    socket.once('close', onFail);
  });
}

function basicAuth(username?: string, password?: string): string | undefined {
  if (username === undefined) return undefined;
  return `Basic ${Buffer.from(`${username}:${password ?? ''}`, 'utf8').toString('base64')}`;
}

function hostHeader(target: TTarget): string {
  return `${net.isIPv6(target.host) ? `[${target.host}]` : target.host}:${target.port}`;
}

async function viaHttpUpstream(exit: TUpstreamExit, target: TTarget, timeoutMs: number): Promise<net.Socket> {
  const socket = await connectSocket({ host: exit.host, port: exit.port }, timeoutMs);
  const auth = basicAuth(exit.username, exit.password);
  const hostPort = hostHeader(target);
  socket.write(`CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
  const { message, rest } = await readUntil(
    socket,
    (buf) => {
      const end = buf.indexOf('\r\n\r\n');
      return end === -1 ? null : end + 4;
    },
    timeoutMs,
  );
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(message.toString('latin1'))?.[1]);
  if (status !== 200) {
    socket.destroy();
    throw new GatewayRefusal('upstream-failed', status === 403 ? SOCKS_REPLY.notAllowed : SOCKS_REPLY.hostUnreachable);
  }
  if (rest.length) socket.unshift(rest);
  return socket;
}

async function viaSocksUpstream(exit: TUpstreamExit, target: TTarget, timeoutMs: number): Promise<net.Socket> {
  const socket = await connectSocket({ host: exit.host, port: exit.port }, timeoutMs);
  const hasAuth = exit.username !== undefined;
  socket.write(Buffer.from(hasAuth ? [5, 1, 2] : [5, 1, 0]));
  const method = await readUntil(socket, (b) => (b.length >= 2 ? 2 : null), timeoutMs);
  socket.resume();
  if (method.message[0] !== 5 || method.message[1] !== (hasAuth ? 2 : 0)) {
    socket.destroy();
    throw new GatewayRefusal('upstream-failed');
  }
  if (hasAuth) {
    socket.write(buildUserPass(exit.username!, exit.password ?? ''));
    const auth = await readUntil(socket, (b) => (b.length >= 2 ? 2 : null), timeoutMs);
    socket.resume();
    if (auth.message[1] !== 0) {
      socket.destroy();
      throw new GatewayRefusal('upstream-failed');
    }
  }
  socket.write(buildConnectRequest(target.host, target.port));
  const reply = await readUntil(
    socket,
    (b) => {
      if (b.length < 5) return null;
      const len = b[3] === 1 ? 10 : b[3] === 4 ? 22 : 7 + b[4];
      return b.length >= len ? len : null;
    },
    timeoutMs,
  );
  if (reply.message[1] !== SOCKS_REPLY.succeeded) {
    socket.destroy();
    throw new GatewayRefusal('upstream-failed', reply.message[1]);
  }
  if (reply.rest.length) socket.unshift(reply.rest);
  return socket;
}

/**
 * Opens a TCP stream to the target through the exit. The returned socket is
 * paused with any early bytes unshifted; the caller pipes it. `guard` is null
 * only for the configured echo, whose request the caller has checked.
 */
export async function dialThroughExit(exit: TExit, target: TTarget, guard: TTargetGuard | null, timeoutMs: number): Promise<net.Socket> {
  if (exit.kind === 'direct') {
    guard?.check(target.host, target.port);
    const socket = await connectSocket({ host: target.host, port: target.port, lookup: guard?.guardedLookup(target.port) }, timeoutMs);
    socket.pause();
    return socket;
  }
  return exit.kind === 'http' ? viaHttpUpstream(exit, target, timeoutMs) : viaSocksUpstream(exit, target, timeoutMs);
}
