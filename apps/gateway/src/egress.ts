import net from 'node:net';
import { SocksClient } from 'socks';
import { GatewayRefusal } from './refusals';
import { SOCKS_REPLY } from './socks5';
import type { TTargetRuleMatcher } from '@proxy/contract';
import type { TTargetGuard } from './target-policy';
import type { TPoolExit } from './upstream-pools';

/** Where a connection leaves for the internet: the gateway host itself, an upstream proxy, or an upstream pool. */
export type TExit = TNodeExit | TPoolExit;

/** An exit of the inventory (exit_nodes): the gateway host itself, or an upstream proxy. */
export type TNodeExit = { id: number; kind: 'direct'; exitIp?: string } | TUpstreamExit;

/** An upstream proxy exit (HTTP CONNECT or SOCKS5). */
export type TUpstreamExit = {
  id: number;
  kind: 'http' | 'socks5';
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** The address it leaves from, where the inventory knows it (the session hold report, exits not shared). */
  exitIp?: string;
};

/** A destination as the client asked for it. */
export type TTarget = { host: string; port: number };

const HEAD_LIMIT = 16 * 1024;

// RFC 1928 reply names as the socks library reports them ("... - HostUnreachable").
const SOCKS_REPLY_BY_NAME: Record<string, number> = {
  Failure: SOCKS_REPLY.generalFailure,
  NotAllowed: SOCKS_REPLY.notAllowed,
  NetworkUnreachable: SOCKS_REPLY.networkUnreachable,
  HostUnreachable: SOCKS_REPLY.hostUnreachable,
  ConnectionRefused: SOCKS_REPLY.connectionRefused,
  TTLExpired: SOCKS_REPLY.ttlExpired,
  CommandNotSupported: SOCKS_REPLY.commandNotSupported,
  AddressNotSupported: SOCKS_REPLY.addressTypeNotSupported,
};

/** The refusal for a failed dial: the SOCKS5 reply code says why. */
export function dialRefusal(err: unknown): GatewayRefusal {
  if (err instanceof GatewayRefusal) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ETIMEDOUT') return new GatewayRefusal('upstream-failed', SOCKS_REPLY.ttlExpired);
  if (code === 'ECONNREFUSED') return new GatewayRefusal('upstream-failed', SOCKS_REPLY.connectionRefused);
  if (code === 'ENETUNREACH') return new GatewayRefusal('upstream-failed', SOCKS_REPLY.networkUnreachable);
  return new GatewayRefusal('upstream-failed', SOCKS_REPLY.hostUnreachable);
}

/** Where a dial puts the socket it is connecting (so that the registry's sweep can abort it at the deadline). */
export type TDialObserver = { dialing: net.Socket | null };

/**
 * Connects a socket. No timer: the connection registry's sweep destroys a
 * dial that takes too long (with an ETIMEDOUT error), as it does every other deadline.
 */
function connectSocket(options: net.NetConnectOpts, observer: TDialObserver | undefined): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options);
    // The first of these settles the dial; the others stay, doing nothing (cheaper than removing them).
    let isSettled = false;
    socket.once('connect', () => {
      isSettled = true;
      resolve(socket);
    });
    socket.once('error', (err: Error) => {
      if (isSettled) return;
      isSettled = true;
      socket.destroy();
      reject(dialRefusal(err));
    });
    socket.once('close', () => {
      if (isSettled) return;
      isSettled = true;
      reject(new GatewayRefusal('upstream-failed', SOCKS_REPLY.hostUnreachable));
    });
    if (observer) observer.dialing = socket;
  });
}

/** Reads from the socket until `isComplete` says the bytes so far hold a whole message. */
function readUntil(
  socket: net.Socket,
  isComplete: (buf: Buffer) => number | null,
  timeoutMs: number,
): Promise<{ message: Buffer; rest: Buffer }> {
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

async function viaHttpUpstream(
  exit: TUpstreamExit,
  target: TTarget,
  timeoutMs: number,
  observer?: TDialObserver,
): Promise<net.Socket> {
  const socket = await connectSocket({ host: exit.host, port: exit.port, noDelay: true }, observer);
  const auth = basicAuth(exit.username, exit.password);
  const hostPort = hostHeader(target);
  socket.write(
    `CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`,
  );
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

// An upstream SOCKS5 proxy, through the socks library (RFC 1928 and RFC 1929).
async function viaSocksUpstream(exit: TUpstreamExit, target: TTarget, timeoutMs: number): Promise<net.Socket> {
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: { host: exit.host, port: exit.port, type: 5, userId: exit.username, password: exit.password },
      set_tcp_nodelay: true,
      command: 'connect',
      destination: { host: target.host, port: target.port },
      timeout: timeoutMs,
    });
    // The library replays bytes that came with its last reply on the next turn, then resumes: the caller pipes before that.
    return socket;
  } catch (err) {
    const reply = /- (\w+)$/.exec((err as Error).message)?.[1];
    throw new GatewayRefusal('upstream-failed', (reply && SOCKS_REPLY_BY_NAME[reply]) || SOCKS_REPLY.hostUnreachable);
  }
}

/**
 * Opens a TCP stream to the target through the exit. A direct socket comes
 * back paused; the caller pipes it at once. `guard` is null only for the
 * configured echo, whose request the caller has checked. `rules`: the
 * token's target rules, checked before any byte leaves.
 */
export async function dialThroughExit(
  exit: TNodeExit,
  target: TTarget,
  guard: TTargetGuard | null,
  timeoutMs: number,
  observer?: TDialObserver,
  rules: TTargetRuleMatcher | null = null,
): Promise<net.Socket> {
  if (exit.kind === 'direct') {
    guard?.check(target.host, target.port, rules);
    const lookup = guard && !net.isIP(target.host) ? guard.guardedLookup(target.port, rules) : undefined;
    const socket = await connectSocket({ host: target.host, port: target.port, lookup, noDelay: true }, observer);
    socket.pause();
    return socket;
  }
  await guard?.checkRulesRemote(target.host, rules);
  return exit.kind === 'http'
    ? viaHttpUpstream(exit, target, timeoutMs, observer)
    : viaSocksUpstream(exit, target, timeoutMs);
}
