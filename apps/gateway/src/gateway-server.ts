import http from 'node:http';
import net from 'node:net';
import type { TAuthorizer, TGrant, TMeter, TProxyProtocol } from './authorizer';
import { createLocalLimiter, type TConnectionLimiter } from './connection-limits';
import { dialThroughExit, type TExit, type TTarget } from './egress';
import { GatewayRefusal, REFUSALS, httpRefusal, type TRefusal } from './refusals';
import {
  METHOD_NONE_ACCEPTABLE,
  METHOD_USERPASS,
  SOCKS_REPLY,
  authReply,
  methodReply,
  parseGreeting,
  parseRequest,
  parseUserPass,
  requestReply,
  type TParse,
} from './socks5';
import { createTargetGuard, type TEchoTarget, type TTargetPolicy } from './target-policy';

/** Settings of the protocol server. */
export type TGatewayServerOptions = {
  authorizer: TAuthorizer;
  meter: TMeter;
  policy: TTargetPolicy;
  /** Closes connections idle this long. */
  idleTimeoutMs?: number;
  /** Time to finish a handshake (SOCKS5 or the first HTTP request head). */
  handshakeTimeoutMs?: number;
  /** Time to reach the destination. */
  connectTimeoutMs?: number;
  /** How often byte counters are sampled and live connections re-checked. */
  sampleIntervalMs?: number;
  /** Simultaneous connections per token (default: counted in this process). */
  limiter?: TConnectionLimiter;
};

// A client connection and what it has been metered so far.
type TConn = {
  socket: net.Socket;
  sourceIp: string;
  tokenId: number | null;
  /** Bytes (read + written) of the client socket already metered or excluded (handshakes, refused requests). */
  counted: number;
  /** The destination side, destroyed with the client. */
  peer?: net.Socket;
  /** Last accepted Proxy-Authorization of a kept-alive HTTP connection (re-checked each second). */
  lastAuth?: { header: string; grant: TGrant; at: number };
  /** A CONNECT or SOCKS5 handshake in progress: nothing is metered until the tunnel is accepted. */
  isOpeningTunnel?: boolean;
};

// A kept-alive HTTP connection re-authorises at most this often; live checks still run every sample.
const AUTH_CACHE_MS = 1000;

const CONNECT_OK = 'HTTP/1.1 200 Connection Established\r\n\r\n';
// Longest request head accepted.
const HEAD_LIMIT = 16 * 1024;

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function parseBasic(header: string | undefined): { username: string; password: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function splitHostPort(authority: string): TTarget | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1] ?? m[2], port };
}

/** The gateway's protocol engine: one net.Server speaking HTTP, CONNECT and SOCKS5. */
export function createGatewayServer(options: TGatewayServerOptions) {
  const { authorizer, meter } = options;
  const guard = createTargetGuard(options.policy);
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 15_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  const conns = new Map<net.Socket, TConn>();
  const limiter = options.limiter ?? createLocalLimiter();
  const agents = new Map<number, http.Agent>();

  // --- metering and live checks ------------------------------------------
  function sample(conn: TConn): void {
    if (conn.isOpeningTunnel) return;
    const total = conn.socket.bytesRead + conn.socket.bytesWritten;
    if (conn.tokenId !== null && total > conn.counted) meter.record(conn.tokenId, total - conn.counted);
    conn.counted = total;
  }
  function unbind(conn: TConn): void {
    if (conn.tokenId === null) return;
    sample(conn);
    limiter.release(conn.tokenId);
    conn.tokenId = null;
  }
  const sampler = setInterval(() => {
    for (const conn of conns.values()) {
      if (conn.tokenId === null) continue;
      sample(conn);
      if (authorizer.check(conn.tokenId, conn.sourceIp)) {
        conn.peer?.destroy();
        conn.socket.destroy();
      }
    }
  }, options.sampleIntervalMs ?? 1000);
  sampler.unref();

  // One agent per exit, and one more per exit for the echo (dialled without the target guard).
  function agentFor(exit: TExit, isEcho: boolean): http.Agent {
    const key = isEcho ? -1 - exit.id : exit.id;
    let agent = agents.get(key);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: idleTimeoutMs });
      agents.set(key, agent);
      // Every origin connection goes through the exit: a tunnel through an upstream proxy
      // (one code path for HTTP and SOCKS5 upstreams), or a direct dial under the target policy.
      (agent as unknown as { createConnection: unknown }).createConnection = (
        opts: { host: string; port: number },
        callback: (err: Error | null, socket?: net.Socket) => void,
      ) => {
        dialThroughExit(exit, { host: opts.host, port: Number(opts.port) }, isEcho ? null : guard, connectTimeoutMs).then(
          (socket) => {
            socket.resume();
            callback(null, socket);
          },
          (err: Error) => callback(err),
        );
        return undefined;
      };
    }
    return agent;
  }

  async function dialWithFallback(grant: TGrant, target: TTarget, isEcho = false): Promise<net.Socket> {
    let lastError: unknown = null;
    for (const exit of grant.exits) {
      try {
        return await dialThroughExit(exit, target, isEcho ? null : guard, connectTimeoutMs);
      } catch (err) {
        lastError = err;
        if (err instanceof GatewayRefusal && err.reason === 'target-refused') break;
        grant.onExitFailed?.(exit);
      }
    }
    throw lastError ?? new GatewayRefusal('upstream-failed');
  }

  /**
   * Authorizes and binds the connection to the token, then calls `then`. The
   * answer is usually immediate (the in-memory copy); credentials the copy
   * does not accept may be looked up once in the database first. Nothing is
   * called for a client that left meanwhile.
   */
  function authorize(
    conn: TConn,
    creds: { username: string; password: string } | null,
    protocol: TProxyProtocol,
    then: (grant: TGrant | TRefusal) => void,
  ): void {
    if (!creds) return then('auth-required');
    // Binds the connection to the token: one of its simultaneous-connection slots (asked of the primary when clustered).
    const settle = (result: TGrant | TRefusal) => {
      if (conn.socket.destroyed) return;
      if (typeof result === 'string' || conn.tokenId === result.tokenId) return then(result);
      const onSlot = (isTaken: boolean) => {
        if (!isTaken) return then('too-many-connections');
        if (conn.socket.destroyed) return limiter.release(result.tokenId);
        unbind(conn);
        conn.tokenId = result.tokenId;
        then(result);
      };
      const slot = limiter.acquire(result.tokenId, result.maxConnections);
      if (slot instanceof Promise) slot.then(onSlot, () => onSlot(false));
      else onSlot(slot);
    };
    const result = authorizer.authorize({ ...creds, protocol, sourceIp: conn.sourceIp });
    if (result instanceof Promise) result.then(settle, () => settle('bad-credentials'));
    else settle(result);
  }

  // Joins client and destination; either side closing closes both. `isOneWay`: the client's further bytes are dropped (echo).
  function tunnel(conn: TConn, target: net.Socket, early?: Buffer, isOneWay = false): void {
    conn.peer = target;
    const client = conn.socket;
    target.setNoDelay(true);
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
    target.setTimeout(idleTimeoutMs, () => target.destroy());
    if (early?.length) target.write(early);
    if (isOneWay) client.on('data', () => {});
    else client.pipe(target);
    target.pipe(client);
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

  /**
   * A tunnel (CONNECT or SOCKS5) to an echo: accepted at once, then one
   * request head is read from the client. A GET of the echo's path is dialled
   * and forwarded and its answer relayed; nothing else reaches the listener.
   */
  function startEchoTunnel(conn: TConn, grant: TGrant, target: TTarget, echo: TEchoTarget, early: Buffer, accept: () => void): void {
    const socket = conn.socket;
    accept();
    let buf = early;
    const timer = setTimeout(() => socket.destroy(), handshakeTimeoutMs);
    const finish = (head: Buffer | null) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.pause();
      if (!head) return void socket.end(httpRefusal('target-refused'));
      dialWithFallback(grant, target, true).then(
        (upstream) => {
          if (socket.destroyed) return upstream.destroy();
          tunnel(conn, upstream, head, true);
        },
        (err: unknown) => socket.end(httpRefusal(err instanceof GatewayRefusal ? err.reason : 'upstream-failed')),
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

  // --- HTTP forward and CONNECT --------------------------------------------
  const httpServer = http.createServer({ keepAliveTimeout: idleTimeoutMs, requestTimeout: 0, headersTimeout: handshakeTimeoutMs });
  httpServer.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end(httpRefusal('bad-request'));
    else socket.destroy();
  });

  /**
   * Opens a CONNECT tunnel. `handshakeRead` is the size of the CONNECT head;
   * `early` holds bytes the client sent after it.
   */
  function startConnect(conn: TConn, authority: string, authHeader: string | undefined, early: Buffer, handshakeRead: number): void {
    const socket = conn.socket;
    sample(conn);
    conn.isOpeningTunnel = true;
    const refuse = (reason: TRefusal) => {
      const answer = httpRefusal(reason);
      conn.counted = socket.bytesRead + socket.bytesWritten + Buffer.byteLength(answer);
      socket.end(answer);
    };
    const target = splitHostPort(authority);
    if (!target) return refuse('bad-request');
    socket.pause();
    authorize(conn, parseBasic(authHeader), 'http', (grant) => {
      if (typeof grant === 'string') return refuse(grant);
      const accept = () => {
        socket.write(CONNECT_OK);
        // Metering starts after the handshake: the CONNECT head and this reply are not counted.
        conn.counted = handshakeRead + socket.bytesWritten;
        conn.isOpeningTunnel = false;
      };
      const echo = guard.echoAt(target.host, target.port);
      if (echo) return startEchoTunnel(conn, grant, target, echo, early, accept);
      dialWithFallback(grant, target).then(
        (upstream) => {
          if (socket.destroyed) return upstream.destroy();
          accept();
          tunnel(conn, upstream, early);
        },
        (err: unknown) => {
          unbind(conn);
          refuse(err instanceof GatewayRefusal ? err.reason : 'upstream-failed');
        },
      );
    });
  }

  // A CONNECT after plain requests on a kept-alive connection arrives through Node's HTTP parser.
  httpServer.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const conn = conns.get(socket);
    if (!conn) return socket.destroy();
    startConnect(conn, req.url ?? '', req.headers['proxy-authorization'], head, socket.bytesRead - head.length);
  });

  /**
   * A connection that opens with CONNECT (the usual case) is parsed here,
   * without Node's HTTP server: one head, then a raw tunnel.
   */
  function handleConnectHead(conn: TConn, first: Buffer): void {
    const socket = conn.socket;
    let buf = first;
    const timer = setTimeout(() => socket.destroy(), handshakeTimeoutMs);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      step();
    };
    const step = () => {
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buf.length > HEAD_LIMIT) {
          clearTimeout(timer);
          socket.removeListener('data', onData);
          socket.end(httpRefusal('bad-request'));
        }
        return;
      }
      clearTimeout(timer);
      socket.removeListener('data', onData);
      const head = buf.toString('latin1', 0, end);
      const lines = head.split('\r\n');
      const requestLine = /^CONNECT (\S+) HTTP\/1\.[01]$/.exec(lines[0]);
      if (!requestLine) return void socket.end(httpRefusal('bad-request'));
      let auth: string | undefined;
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i].indexOf(':');
        if (colon > 0 && lines[i].slice(0, colon).trim().toLowerCase() === 'proxy-authorization') auth = lines[i].slice(colon + 1).trim();
      }
      startConnect(conn, requestLine[1], auth, buf.subarray(end + 4), end + 4);
    };
    socket.on('data', onData);
    step();
  }

  httpServer.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const found = conns.get(req.socket);
    if (!found) return req.socket.destroy();
    const conn: TConn = found;
    const refuse = (reason: TRefusal) => {
      const r = REFUSALS[reason];
      res.shouldKeepAlive = false;
      const headers: Record<string, string> = { 'x-proxy-reason': reason, 'content-type': 'text/plain; charset=utf-8', connection: 'close' };
      if (r.status === 407) headers['proxy-authenticate'] = 'Basic realm="proxy"';
      res.writeHead(r.status, r.text, headers);
      res.end(`${r.text}\n`);
      // Refused requests are not metered.
      res.once('finish', () => {
        conn.counted = req.socket.bytesRead + req.socket.bytesWritten;
      });
      req.resume();
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return refuse('bad-request');
    }
    if (url.protocol !== 'http:') return refuse('bad-request');
    const header = req.headers['proxy-authorization'];
    const cached = conn.lastAuth;
    if (header && cached && cached.header === header && conn.tokenId === cached.grant.tokenId && Date.now() - cached.at < AUTH_CACHE_MS) {
      return forward(cached.grant);
    }
    authorize(conn, parseBasic(header), 'http', (grant) => {
      if (typeof grant === 'string') return refuse(grant);
      if (header) conn.lastAuth = { header, grant, at: Date.now() };
      forward(grant);
    });

    function forward(grant: TGrant): void {
      const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
      // The echo's listener admits only a GET of the echo's path, without a body.
      const echo = guard.echoAt(target.host, target.port);
      if (
        echo &&
        (req.method !== 'GET' || url.pathname !== echo.path || req.headers['transfer-encoding'] || Number(req.headers['content-length'] ?? 0) !== 0)
      ) {
        return refuse('target-refused');
      }
      try {
        if (!echo && grant.exits[0]?.kind === 'direct') guard.check(target.host, target.port);
      } catch {
        return refuse('target-refused');
      }
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      const exit = grant.exits[0];
      if (!exit) return refuse('upstream-failed');
      const outgoing = http.request({
        agent: agentFor(exit, echo !== undefined),
        method: req.method,
        host: target.host,
        port: target.port,
        path: url.pathname + url.search,
        headers,
        setHost: false,
      });
      outgoing.on('response', (upstreamRes) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(upstreamRes.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, out);
        upstreamRes.pipe(res);
      });
      outgoing.on('error', (err) => {
        if (!res.headersSent) {
          if (exit) grant.onExitFailed?.(exit);
          refuse(err instanceof GatewayRefusal ? err.reason : 'upstream-failed');
        } else {
          res.destroy();
        }
      });
      res.on('close', () => {
        if (!outgoing.destroyed && !res.writableFinished) outgoing.destroy();
      });
      res.on('finish', () => sample(conn));
      req.pipe(outgoing);
    }
  });

  // --- SOCKS5 -------------------------------------------------------------
  function handleSocks(conn: TConn, first: Buffer): void {
    const socket = conn.socket;
    conn.isOpeningTunnel = true;
    let buf = first;
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let grant: TGrant | TRefusal | null = null;
    // While the credentials are being checked, bytes wait in `buf`.
    let isAuthorizing = false;
    let handshakeBytes = 0;
    let written = 0;
    const send = (data: Buffer) => {
      written += data.length;
      socket.write(data);
    };
    const timer = setTimeout(() => socket.destroy(), handshakeTimeoutMs);
    const fail = (reply?: Buffer) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      if (reply) socket.end(reply);
      else socket.destroy();
    };
    const step = (): void => {
      if (isAuthorizing) return;
      for (;;) {
        let parsed: TParse<unknown>;
        if (stage === 'greeting') parsed = parseGreeting(buf);
        else if (stage === 'auth') parsed = parseUserPass(buf);
        else parsed = parseRequest(buf);
        if (parsed.status === 'more') {
          if (buf.length > 1024) fail();
          return;
        }
        if (parsed.status === 'error') return fail(stage === 'request' ? requestReply(SOCKS_REPLY.generalFailure) : undefined);
        handshakeBytes += parsed.used;
        buf = buf.subarray(parsed.used);
        if (stage === 'greeting') {
          const { methods } = parsed.value as { methods: number[] };
          if (!methods.includes(METHOD_USERPASS)) return fail(methodReply(METHOD_NONE_ACCEPTABLE));
          send(methodReply(METHOD_USERPASS));
          stage = 'auth';
        } else if (stage === 'auth') {
          const creds = parsed.value as { username: string; password: string };
          isAuthorizing = true;
          authorize(conn, creds, 'socks5', (result) => {
            isAuthorizing = false;
            grant = result;
            // Wrong credentials fail the sub-negotiation; other refusals are reported on the request (RFC 1928 reply 0x02).
            if (grant === 'bad-credentials' || grant === 'auth-required') return fail(authReply(false));
            send(authReply(true));
            stage = 'request';
            step();
          });
          return;
        } else {
          const { command, target } = parsed.value as { command: number; target: TTarget };
          clearTimeout(timer);
          socket.removeListener('data', onData);
          if (typeof grant === 'string' || grant === null) return fail(requestReply(REFUSALS[grant ?? 'auth-required'].socks));
          if (command !== 0x01) return fail(requestReply(SOCKS_REPLY.commandNotSupported));
          const early = buf;
          socket.pause();
          const okGrant = grant;
          const accept = () => {
            send(requestReply(SOCKS_REPLY.succeeded));
            // Metering starts after the handshake: greeting, authentication, request and replies are not counted.
            conn.counted = handshakeBytes + written;
            conn.isOpeningTunnel = false;
          };
          const echo = guard.echoAt(target.host, target.port);
          if (echo) return startEchoTunnel(conn, okGrant, target, echo, early, accept);
          dialWithFallback(okGrant, target).then(
            (upstream) => {
              if (socket.destroyed) return upstream.destroy();
              accept();
              tunnel(conn, upstream, early);
            },
            (err: unknown) => {
              unbind(conn);
              const code = err instanceof GatewayRefusal ? (err.socksCode ?? REFUSALS[err.reason].socks) : SOCKS_REPLY.generalFailure;
              socket.end(requestReply(code));
            },
          );
          return;
        }
      }
    };
    const onData = (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      step();
    };
    socket.on('data', onData);
    step();
  }

  // --- the listening socket -----------------------------------------------
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: false }, (socket) => {
    const conn: TConn = { socket, sourceIp: socket.remoteAddress ?? '', tokenId: null, counted: 0 };
    conns.set(socket, conn);
    socket.setNoDelay(true);
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      unbind(conn);
      conns.delete(socket);
    });
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x05) return handleSocks(conn, first);
      if (first.length >= 8 && first.toString('latin1', 0, 8) === 'CONNECT ') return handleConnectHead(conn, first);
      socket.pause();
      socket.unshift(first);
      httpServer.emit('connection', socket);
      socket.resume();
    });
  });

  return {
    server,
    /** Open client connections. */
    connectionCount: () => conns.size,
    /** Meters every open connection now (before a flush at shutdown). */
    sampleAll(): void {
      for (const conn of conns.values()) sample(conn);
    },
    /** Stops listening and closes every connection, metering what they used. */
    async close(): Promise<void> {
      clearInterval(sampler);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const conn of conns.values()) {
          sample(conn);
          conn.peer?.destroy();
          conn.socket.destroy();
        }
      });
      for (const agent of agents.values()) agent.destroy();
      httpServer.close();
    },
  };
}

/** The protocol engine type. */
export type TGatewayServer = ReturnType<typeof createGatewayServer>;
