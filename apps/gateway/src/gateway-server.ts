import net from 'node:net';
import type { TAuthorizer } from './authorizer';
import { Connection } from './connection';
import type { TConnectionLimiter } from './connection-limits';
import { createConnectionRegistry } from './connection-registry';
import { GatewayCounters } from './gateway-counters';
import { DEFAULT_DIAL_TRIES, type TGatewayContext } from './gateway-context';
import { handleConnect } from './http-connect';
import { handleHttpForward } from './http-forward';
import type { TMeter } from './meter';
import { handleSocks5 } from './socks5-server';
import { createTargetGuard, type TTargetPolicy } from './target-policy';
import type { TUsageLogSink } from './usage-log';
import { createPoolRuntime, type TPoolRuntime } from './upstream-pools';
import type { TStickySessions } from './sticky-sessions';
import type { TExitClaims } from './exit-claims';

/** Settings of the protocol server. */
export type TGatewayServerOptions = {
  authorizer: TAuthorizer;
  meter: TMeter;
  policy: TTargetPolicy;
  /** Closes connections idle this long. */
  idleTimeoutMs?: number;
  /** Time to finish a handshake (SOCKS5, CONNECT, or an HTTP request head). */
  handshakeTimeoutMs?: number;
  /** Time to reach the destination. */
  connectTimeoutMs?: number;
  /** How often byte counters are sampled, live connections re-checked and deadlines swept. */
  sampleIntervalMs?: number;
  /** Simultaneous connections per token (default: counted in this process). */
  limiter?: TConnectionLimiter;
  /** The per-connection usage log (none: nothing is logged). */
  usageLog?: TUsageLogSink;
  /** Totals for the metrics (connections by protocol, bytes, refusals, dials). */
  counters?: GatewayCounters;
  /** Candidates (exits, pools) a connection dials at most before it is refused (default 3). */
  dialTries?: number;
  /** This process's view of the upstream pools (default: its own, with the breaker's defaults). */
  pools?: TPoolRuntime;
  /** The session hold report's records (absent: not reported). */
  sessions?: TStickySessions;
  /** Exits claimed by an account's live sticky sessions (absent: exits may be shared). */
  claims?: TExitClaims;
};

const kConnection = Symbol('connection');
type TClientSocket = net.Socket & { [kConnection]: Connection };

function onClientError(this: net.Socket): void {
  this.destroy();
}

/**
 * The gateway's protocol engine: one net.Server; the first byte of each
 * connection says its protocol (0x05 SOCKS5, `CONNECT ` a tunnel, anything
 * else HTTP forward), and the module of that protocol takes it from there.
 */
export function createGatewayServer(options: TGatewayServerOptions) {
  const counters = options.counters ?? new GatewayCounters();
  const registry = createConnectionRegistry({
    counters,
    authorizer: options.authorizer,
    meter: options.meter,
    limiter: options.limiter,
    usageLog: options.usageLog,
    sampleIntervalMs: options.sampleIntervalMs ?? 1000,
    idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
  });
  const ctx: TGatewayContext = {
    authorizer: options.authorizer,
    registry,
    guard: createTargetGuard(options.policy),
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 15_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
    dialTries: options.dialTries ?? DEFAULT_DIAL_TRIES,
    pools: options.pools ?? createPoolRuntime({ now: Date.now, failures: 5, openMs: 30_000 }),
    counters,
    sessions: options.sessions,
    claims: options.claims,
  };

  function onClose(this: TClientSocket): void {
    registry.remove(this[kConnection]);
  }

  function onFirstData(this: TClientSocket, first: Buffer): void {
    const conn = this[kConnection];
    if (first[0] === 0x05) {
      counters.accepted[2] += 1;
      return handleSocks5(ctx, conn, first);
    }
    if (first.length >= 8 && first.toString('latin1', 0, 8) === 'CONNECT ') {
      counters.accepted[1] += 1;
      return handleConnect(ctx, conn, first);
    }
    counters.accepted[0] += 1;
    handleHttpForward(ctx, conn, first);
  }

  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    const conn = new Connection(socket, socket.remoteAddress ?? '', registry.clock(), ctx.handshakeTimeoutMs);
    (socket as TClientSocket)[kConnection] = conn;
    registry.add(conn);
    socket.on('error', onClientError);
    socket.once('close', onClose);
    socket.once('data', onFirstData);
  });

  return {
    server,
    /** Open client connections. */
    connectionCount: () => registry.count(),
    /** Meters every open connection now (before a flush at shutdown). */
    sampleAll: () => registry.sampleAll(),
    /**
     * Stops listening at once; open connections (tunnels, a forwarded answer in progress) run on until they end or
     * `drainMs` has passed, then the rest are closed. Every connection's bytes are metered.
     */
    async close(drainMs = 0): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (drainMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          registry.drain(),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, drainMs);
          }),
        ]);
        clearTimeout(timer);
      }
      registry.closeAll();
      await closed;
    },
  };
}

/** The protocol engine type. */
export type TGatewayServer = ReturnType<typeof createGatewayServer>;
