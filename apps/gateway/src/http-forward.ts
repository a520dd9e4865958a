// Kept whole past ~400 lines: HttpForwarder is one state machine per client connection whose client side and origin side
// share the exchange in progress, the buffers and the origin socket; split, they would need a base class or functions taking
// the forwarder, one more indirection on every chunk of the hot path.
import type net from 'node:net';
import type { TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TExit } from './egress';
import { dialFor, type TGatewayContext } from './gateway-context';
import { openConnectTunnel } from './http-connect';
import type { Purse } from './leases';
import {
  ChunkedBody,
  LengthBody,
  NO_BODY,
  UntilCloseBody,
  parseAbsoluteTarget,
  parseBasic,
  parseRequestHead,
  parseResponseHead,
  type TBodyFrame,
  type TRequestHead,
  type TResponseHead,
} from './http-head';
import { httpRefusal, type GatewayRefusal, type TRefusal } from './refusals';

// Longest request head; longest response head.
const HEAD_LIMIT = 16 * 1024;
const RESPONSE_HEAD_LIMIT = 64 * 1024;
// Client bytes buffered ahead (pipelined requests, a body while dialling) before reading pauses.
const BUFFER_LIMIT = 64 * 1024;
// A kept-alive connection re-authorises at most this often; live checks still run every sweep.
const AUTH_CACHE_MS = 1000;
const HEAD_END = Buffer.from('\r\n\r\n');

// One request and its answer.
type TExchange = {
  head: TRequestHead;
  target: { host: string; port: number; authority: string; path: string };
  /** auth: being authorised; dial: the origin is being reached; body: the request is being sent; response: sent, waiting for the end of the answer. */
  phase: 'auth' | 'dial' | 'body' | 'response';
  grant?: TGrant;
  exit?: TExit;
  /** Which origin connection serves it: exit, echo or not, host and port. */
  key?: string;
  isEcho?: boolean;
  /** The head as the origin gets it. */
  outHead?: Buffer;
  requestBody: TBodyFrame;
  response: TResponseHead | null;
  responseBody: TBodyFrame | null;
  /** The answer's first byte has gone to the client. */
  isAnswering: boolean;
  /** Close the client connection after this answer. */
  isLast: boolean;
  /** Sent on an origin connection kept from an earlier request (one retry if it turns out closed). */
  isReused: boolean;
};

/**
 * HTTP forward proxying without Node's HTTP server and client: request
 * line, headers and body length are read from the bytes; the origin-form
 * head goes to the origin and the body is passed through as it came; the
 * answer is framed the same way (Content-Length, chunked, or until close)
 * and passed back. One origin connection per client connection, kept
 * while the requests go to the same origin through the same exit. Requests
 * are answered in order (pipelining); a CONNECT on the connection becomes a
 * tunnel.
 */
export function handleHttpForward(ctx: TGatewayContext, conn: Connection, first: Buffer): void {
  new HttpForwarder(ctx, conn).start(first);
}

class HttpForwarder {
  private buf: Buffer | null = null;
  private ex: TExchange | null = null;
  private upstream: net.Socket | null = null;
  private upstreamKey = '';
  private upBuf: Buffer | null = null;
  private lastAuth: { header: string; grant: TGrant; at: number } | null = null;
  private isPumping = false;
  private isDone = false;
  // A traffic token's bytes the purse could not give yet (reading paused until the next claim is settled), each way.
  private clientHeld: Buffer | null = null;
  private isClientEndHeld = false;
  private upHeld: Buffer | null = null;

  constructor(
    private readonly ctx: TGatewayContext,
    private readonly conn: Connection,
  ) {}

  start(first: Buffer): void {
    const socket = this.conn.socket;
    socket.on('data', this.onClientData);
    socket.on('end', this.onClientEnd);
    socket.once('close', this.onClientClose);
    this.conn.onDrain = this.onDrain;
    this.onClientData(first);
  }

  // --- the client side ---------------------------------------------------------
  private readonly onClientData = (chunk: Buffer): void => {
    const purse = this.conn.purse;
    if (purse !== null) {
      if (this.clientHeld !== null) return this.holdClient(chunk, purse);
      const n = purse.take(chunk.length);
      if (n < chunk.length) {
        this.holdClient(chunk.subarray(n), purse);
        if (n === 0) return;
        chunk = chunk.subarray(0, n);
      }
    }
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.buf.length > BUFFER_LIMIT && this.ex?.phase !== 'body') this.conn.socket.pause();
    this.pump();
  };

  private holdClient(rest: Buffer, purse: Purse): void {
    const held = this.clientHeld;
    this.clientHeld = held ? Buffer.concat([held, rest]) : rest;
    this.conn.socket.pause();
    if (!held) purse.wait(() => this.releaseClient(purse));
  }

  private releaseClient(purse: Purse): void {
    const held = this.clientHeld;
    this.clientHeld = null;
    if (this.isDone || !held) return;
    if (purse.isExhausted) return this.stopExhausted();
    this.onClientData(held);
    if (this.clientHeld !== null) return;
    if (this.isClientEndHeld) {
      this.isClientEndHeld = false;
      this.onClientEnd();
    }
    this.pump();
  }

  private readonly onClientEnd = (): void => {
    if (this.clientHeld !== null) {
      this.isClientEndHeld = true;
      return;
    }
    const ex = this.ex;
    // A request cut short: nothing to answer.
    if (ex && ex.phase === 'body') return this.conn.destroy();
    if (ex) ex.isLast = true;
    else this.finish();
  };

  // The gateway is stopping: a connection waiting between requests closes now; one with a request in progress
  // closes after its answer, which says so (`Connection: close`).
  private readonly onDrain = (): void => {
    if (this.ex === null && this.buf === null && this.clientHeld === null && !this.isDone) this.finish();
  };

  private readonly onClientClose = (): void => {
    this.isDone = true;
    this.dropUpstream();
  };

  /** Reads what the client sent, as far as the exchange in progress allows. */
  private pump(): void {
    if (this.isPumping || this.isDone) return;
    this.isPumping = true;
    try {
      while (this.step()) {
        // keep going
      }
    } finally {
      this.isPumping = false;
    }
    const socket = this.conn.socket;
    if (
      socket.isPaused() &&
      this.clientHeld === null &&
      (this.buf?.length ?? 0) <= BUFFER_LIMIT &&
      (!this.upstream || !this.upstream.writableNeedDrain)
    )
      socket.resume();
  }

  private step(): boolean {
    if (this.isDone) return false;
    if (!this.ex) return this.startRequest();
    const ex = this.ex;
    if (ex.phase !== 'body' || !this.buf) return false;
    const buf = this.buf;
    const n = ex.requestBody.take(buf, 0);
    if (n < 0) {
      this.dropUpstream();
      if (ex.isAnswering) this.conn.destroy();
      else this.refuse('bad-request');
      return false;
    }
    this.buf = n < buf.length ? buf.subarray(n) : null;
    const isFlowing = n === 0 || this.upstream!.write(n === buf.length ? buf : buf.subarray(0, n));
    if (ex.requestBody.isDone) {
      ex.phase = 'response';
      if (ex.responseBody?.isDone) this.endExchange();
      return this.ex === null;
    }
    if (!isFlowing) {
      this.conn.socket.pause();
      return false;
    }
    return this.buf !== null;
  }

  /** Parses the next request head; answers whether it moved on. */
  private startRequest(): boolean {
    let buf = this.buf;
    if (!buf) return false;
    // Empty lines before a request line are ignored (RFC 9112 section 2.2).
    let from = 0;
    while (from + 1 < buf.length && buf[from] === 0x0d && buf[from + 1] === 0x0a) from += 2;
    if (from) buf = this.buf = from < buf.length ? buf.subarray(from) : null;
    if (!buf) return false;
    const end = buf.indexOf(HEAD_END);
    if (end === -1) {
      if (buf.length > HEAD_LIMIT) this.refuse('bad-request');
      // A head begun must be complete within the handshake time.
      else if (this.conn.deadline === Infinity)
        this.conn.deadline = this.ctx.registry.clock() + this.ctx.handshakeTimeoutMs;
      return false;
    }
    if (end > HEAD_LIMIT) return this.refuse('bad-request');
    this.conn.deadline = Infinity;
    const head = parseRequestHead(buf.toString('latin1', 0, end));
    if (typeof head === 'string') return this.refuse('bad-request');
    const rest = buf.subarray(end + 4);
    this.buf = rest.length ? rest : null;
    if (head.method === 'CONNECT') {
      // A tunnel after plain requests: the connection is CONNECT's from here on.
      this.detach();
      const socket = this.conn.socket;
      openConnectTunnel(
        this.ctx,
        this.conn,
        head.target,
        head.proxyAuthorization,
        rest,
        socket.bytesRead - rest.length,
      );
      return false;
    }
    const target = parseAbsoluteTarget(head.target);
    if (!target) return this.refuse('bad-request');
    this.conn.setTarget(target);
    const ex: TExchange = {
      head,
      target,
      phase: 'auth',
      requestBody: head.isChunked
        ? new ChunkedBody()
        : head.contentLength
          ? new LengthBody(head.contentLength)
          : NO_BODY,
      response: null,
      responseBody: null,
      isAnswering: false,
      isLast: !head.isKeepAlive,
      isReused: false,
    };
    this.ex = ex;
    this.conn.isHeld = true;
    const header = head.proxyAuthorization;
    const cached = this.lastAuth;
    if (
      header &&
      cached &&
      cached.header === header &&
      this.conn.tokenId === cached.grant.tokenId &&
      performance.now() - cached.at < AUTH_CACHE_MS
    ) {
      this.forward(ex, cached.grant);
      return this.ex !== ex || ex.phase === 'body';
    }
    const creds = parseBasic(header);
    this.ctx.registry.admit(
      this.conn,
      creds && { username: creds.username, password: creds.password, protocol: 'http', sourceIp: this.conn.sourceIp },
      (grant) => {
        if (this.ex !== ex) return;
        if (typeof grant === 'string') return void this.refuse(grant);
        if (header) this.lastAuth = { header, grant, at: performance.now() };
        this.forward(ex, grant);
        this.pump();
      },
    );
    return this.ex !== ex || ex.phase === 'body';
  }

  /** Sends the request to its origin through the grant's exit: on the kept origin connection when it leads there, else a new one. */
  private forward(ex: TExchange, grant: TGrant): void {
    const { host, port, path, authority } = ex.target;
    const { head } = ex;
    const { guard } = this.ctx;
    // The echo's listener admits only a GET of the echo's path, without a body.
    const echo = guard.echoAt(host, port);
    if (echo) {
      const query = path.indexOf('?');
      const pathname = query >= 0 ? path.slice(0, query) : path;
      if (head.method !== 'GET' || pathname !== echo.path || head.isChunked || (head.contentLength ?? 0) !== 0)
        return void this.refuse('target-refused');
    }
    const exit = grant.exits[0];
    if (!exit) return void this.refuse('upstream-failed');
    try {
      if (!echo && exit.kind === 'direct') guard.check(host, port);
    } catch {
      return void this.refuse('target-refused');
    }
    ex.grant = grant;
    ex.exit = exit;
    this.conn.purse = grant.purse ?? null;
    const lines = head.hasHost ? head.lines : [`Host: ${authority}`, ...head.lines];
    ex.outHead = Buffer.from(
      `${head.method} ${path} HTTP/1.${head.minor}\r\n${lines.length ? `${lines.join('\r\n')}\r\n` : ''}\r\n`,
      'latin1',
    );
    ex.key = `${exit.kind === 'pool' ? 'p' : ''}${exit.id}${echo ? 'e' : ''} ${host}:${port}`;
    ex.isEcho = echo !== undefined;
    if (this.upstream && this.upstreamKey === ex.key && this.upstream.writable) {
      ex.isReused = true;
      this.send(ex);
      return;
    }
    this.dropUpstream();
    this.dial(ex);
  }

  private dial(ex: TExchange): void {
    ex.phase = 'dial';
    dialFor(this.ctx, this.conn, ex.grant!, ex.target, ex.isEcho).then(
      (upstream) => {
        if (this.isDone || this.ex !== ex) return void upstream.destroy();
        this.attachUpstream(upstream, ex.key!);
        this.send(ex);
        this.pump();
      },
      (err: GatewayRefusal) => {
        if (this.ex === ex) this.refuse(err.reason);
      },
    );
  }

  private send(ex: TExchange): void {
    const upstream = this.upstream!;
    ex.phase = ex.requestBody.isDone ? 'response' : 'body';
    upstream.write(ex.outHead!);
  }

  /** The answer is complete: meter it, then go on with the next request or close. */
  private endExchange(): void {
    const ex = this.ex!;
    this.ex = null;
    this.conn.isHeld = false;
    this.ctx.registry.sample(this.conn);
    // The origin's connection is kept only when both sides are done and it said it stays open.
    if (ex.phase !== 'response' || !ex.response || ex.response.isClosing || ex.responseBody instanceof UntilCloseBody)
      this.dropUpstream();
    if (ex.isLast || ex.phase !== 'response' || this.ctx.registry.isDraining()) return this.finish();
    this.pump();
  }

  // --- the origin side ---------------------------------------------------------
  private attachUpstream(upstream: net.Socket, key: string): void {
    this.upstream = upstream;
    this.upstreamKey = key;
    this.upBuf = null;
    this.conn.peer = upstream;
    upstream.on('data', this.onUpstreamData);
    upstream.on('drain', this.onUpstreamDrain);
    upstream.on('error', () => {});
    upstream.once('close', () => this.onUpstreamClose(upstream));
    upstream.resume();
  }

  private dropUpstream(): void {
    const upstream = this.upstream;
    if (!upstream) return;
    this.upstream = null;
    this.upstreamKey = '';
    this.upBuf = null;
    this.upHeld = null;
    this.conn.peer = null;
    upstream.destroy();
  }

  private readonly onUpstreamDrain = (): void => this.pump();

  private readonly onUpstreamData = (chunk: Buffer): void => {
    const purse = this.conn.purse;
    if (purse !== null) {
      if (this.upHeld !== null) return this.holdUpstream(chunk, purse);
      const n = purse.take(chunk.length);
      if (n < chunk.length) {
        this.holdUpstream(chunk.subarray(n), purse);
        if (n === 0) return;
        chunk = chunk.subarray(0, n);
      }
    }
    this.passUpstream(chunk);
  };

  private holdUpstream(rest: Buffer, purse: Purse): void {
    const upstream = this.upstream!;
    const held = this.upHeld;
    this.upHeld = held ? Buffer.concat([held, rest]) : rest;
    upstream.pause();
    if (!held) purse.wait(() => this.releaseUpstream(upstream, purse));
  }

  // The claim is settled: the held answer goes on (as far as the purse gives), or the exchange stops.
  private releaseUpstream(upstream: net.Socket, purse: Purse): void {
    const held = this.upHeld;
    this.upHeld = null;
    if (this.isDone || this.upstream !== upstream || !held) return;
    if (purse.isExhausted) return this.stopExhausted();
    this.onUpstreamData(held);
    if (this.upHeld !== null || this.upstream !== upstream) return;
    // A close that came while bytes were held is handled now.
    if (upstream.destroyed) this.onUpstreamClose(upstream);
    else if (!this.conn.socket.writableNeedDrain) upstream.resume();
  }

  /** The token's allowance is all handed out: refused while the answer has not begun, else cut. */
  private stopExhausted(): void {
    if (this.ex && !this.ex.isAnswering) this.refuse('token-exhausted');
    else this.conn.cut('token-exhausted');
  }

  private passUpstream(chunk: Buffer): void {
    const ex = this.ex;
    // Bytes nobody asked for: the origin's connection is not usable any more.
    if (!ex || (ex.phase !== 'body' && ex.phase !== 'response') || ex.responseBody?.isDone) return this.dropUpstream();
    const client = this.conn.socket;
    if (ex.response) {
      const n = this.passBody(ex, chunk, 0, 0);
      if (n >= 0) this.afterBody(ex, chunk, n);
      return;
    }
    const data = this.upBuf ? Buffer.concat([this.upBuf, chunk]) : chunk;
    this.upBuf = null;
    let from = 0;
    for (;;) {
      const end = data.indexOf(HEAD_END, from);
      if (end === -1) {
        if (data.length - from > RESPONSE_HEAD_LIMIT) return this.failUpstream(ex);
        this.upBuf = from < data.length ? data.subarray(from) : null;
        return;
      }
      const response = parseResponseHead(data.toString('latin1', from, end));
      // 101 is never asked for (Upgrade is not passed on).
      if (!response || response.status === 101) return this.failUpstream(ex);
      ex.isAnswering = true;
      this.conn.isHeld = false;
      if (response.status < 200) {
        // An interim answer (100 Continue, 103 Early Hints) passes as it is; the final one follows.
        client.write(data.subarray(from, end + 4));
        from = end + 4;
        continue;
      }
      ex.response = response;
      ex.responseBody = this.responseBodyOf(ex, response);
      if (ex.responseBody instanceof UntilCloseBody || this.ctx.registry.isDraining()) ex.isLast = true;
      const needsKeepAlive = !ex.isLast && ex.head.minor === 0;
      if (response.lines === null && !ex.isLast && !needsKeepAlive) {
        // Unchanged: the head goes out together with the body bytes that came with it.
        const n = this.passBody(ex, data, from, end + 4);
        if (n >= 0) this.afterBody(ex, data, end + 4 + n);
        return;
      }
      const lines = response.lines ?? data.toString('latin1', from, end).split('\r\n').slice(1);
      if (ex.isLast) lines.push('Connection: close');
      else if (needsKeepAlive) lines.push('Connection: keep-alive');
      client.cork();
      client.write(`${response.statusLine}\r\n${lines.length ? `${lines.join('\r\n')}\r\n` : ''}\r\n`, 'latin1');
      const n = this.passBody(ex, data, end + 4, end + 4);
      client.uncork();
      if (n >= 0) this.afterBody(ex, data, end + 4 + n);
      return;
    }
  }

  // Writes data[writeFrom .. bodyFrom + body bytes) to the client; answers the body bytes, or -1 (connection closed).
  private passBody(ex: TExchange, data: Buffer, writeFrom: number, bodyFrom: number): number {
    const n = ex.responseBody!.take(data, bodyFrom);
    if (n < 0) {
      // Broken framing: a 502 while the head is still unsent, else the client can only tell by the close.
      if (bodyFrom > writeFrom) this.failUpstream(ex, true);
      else this.conn.destroy();
      return -1;
    }
    const end = bodyFrom + n;
    if (end > writeFrom) {
      const isFlowing = this.conn.socket.write(
        writeFrom === 0 && end === data.length ? data : data.subarray(writeFrom, end),
      );
      if (!isFlowing && this.upstream) {
        const upstream = this.upstream;
        upstream.pause();
        this.conn.socket.once('drain', () => upstream.resume());
      }
    }
    return n;
  }

  private afterBody(ex: TExchange, data: Buffer, used: number): void {
    if (!ex.responseBody!.isDone) return;
    // Anything after the answer was not asked for.
    if (used < data.length) this.dropUpstream();
    // Answered before the request was all sent: the rest of it cannot be read, so the connection ends (endExchange).
    this.endExchange();
  }

  private responseBodyOf(ex: TExchange, response: TResponseHead): TBodyFrame {
    if (ex.head.method === 'HEAD' || response.status === 204 || response.status === 304) return NO_BODY;
    if (response.isChunked) return new ChunkedBody();
    if (response.contentLength !== null) return new LengthBody(response.contentLength);
    return new UntilCloseBody();
  }

  private onUpstreamClose(upstream: net.Socket): void {
    if (upstream !== this.upstream || this.upHeld !== null) return;
    this.upstream = null;
    this.upstreamKey = '';
    this.conn.peer = null;
    const ex = this.ex;
    if (!ex || (ex.phase !== 'body' && ex.phase !== 'response')) return;
    if (!ex.isAnswering) {
      // A kept origin connection that had closed meanwhile: send once more on a new one (a request without a body).
      if (ex.isReused && ex.head.contentLength === null && !ex.head.isChunked && !this.upBuf) {
        ex.isReused = false;
        return this.dial(ex);
      }
      return this.failUpstream(ex);
    }
    if (ex.responseBody instanceof UntilCloseBody) {
      ex.responseBody.isDone = true;
      ex.isLast = true;
      ex.phase = 'response';
      return this.endExchange();
    }
    // Closed in the middle of the answer: the client can only tell by the connection closing too.
    this.conn.destroy();
  }

  private failUpstream(ex: TExchange, isHeadUnsent = false): void {
    this.dropUpstream();
    if (ex.isAnswering && !isHeadUnsent) return this.conn.destroy();
    if (ex.exit) ex.grant?.onExitFailed?.(ex.exit);
    this.refuse('upstream-failed');
  }

  // --- ending ----------------------------------------------------------------
  /** Answers a refusal and closes; the refused request is not metered. */
  private refuse(reason: TRefusal): false {
    if (this.isDone) return false;
    this.ctx.registry.release(this.conn, reason);
    this.ex = null;
    this.dropUpstream();
    this.conn.socket.end(httpRefusal(reason));
    this.detach();
    return false;
  }

  /** Closes the client connection once what was written is out. */
  private finish(): void {
    this.detach();
    this.dropUpstream();
    this.conn.socket.end();
  }

  private detach(): void {
    this.isDone = true;
    this.ex = null;
    this.buf = null;
    const socket = this.conn.socket;
    socket.removeListener('data', this.onClientData);
    socket.removeListener('end', this.onClientEnd);
    this.dropUpstream();
  }
}
