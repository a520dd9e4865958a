import net from 'node:net';
import { SocksClient } from 'socks';

/**
 * The dial through an upstream proxy (a pool's endpoints, an exit's upstream) to a target: HTTP CONNECT with Basic
 * Proxy-Authorization, or SOCKS5 with RFC 1929 credentials (the socks library, on a TCP connection made here so
 * that "not reachable" and "no answer" are told apart). Endpoints are tried in order while one cannot be reached
 * or does not answer in time; a refusal stops there (every endpoint of a provider answers alike). The answer is
 * typed: connected (the socket, paused, and what the provider said of the exit), refused (why, with the
 * provider's status and an excerpt of what it said, credentials cut out), timeout or unreachable. Used by the
 * API (a pool's check, the inventory probe) and meant for the gateway's pool egress, so it lives in the db
 * package, which both import; the gateway's hot path for exits (apps/gateway/src/egress.ts) is its own.
 */

/** How an upstream is spoken to. */
export type TUpstreamProtocol = 'http-connect' | 'socks5';
/** One host:port of an upstream. */
export type TUpstreamEndpoint = { host: string; port: number };
/** Why an upstream refused: the credentials, an area it does not serve (by its words), or anything else. */
export type TUpstreamRefusalReason = 'bad-credentials' | 'area-not-served' | 'other';
/** What the provider said of the exit it chose (HTTP: X-Exit-IP / X-Exit-Country; SOCKS5: the bound address). */
export type TUpstreamExitInfo = { ip: string | null; country: string | null };
/** One endpoint tried: how it went, how long it took, and a short description (never a credential). */
export type TUpstreamAttempt = {
  endpoint: TUpstreamEndpoint;
  outcome: 'connected' | 'refused' | 'timeout' | 'unreachable';
  ms: number;
  detail: string;
};

/**
 * The outcome of a dial. `attempts` lists every endpoint tried, in order. A failed dial's `bytes`: what was written
 * to and read from the provider on the way (requests and refusals; providers may bill them).
 */
export type TUpstreamDialOutcome =
  | {
      kind: 'connected';
      /** The tunnel to the target, paused: pipe it or resume it (bytes that came with the answer are put back). */
      socket: net.Socket;
      endpoint: TUpstreamEndpoint;
      /** From the start of the endpoint's TCP connection to the provider's success answer. */
      connectMs: number;
      exit: TUpstreamExitInfo;
      attempts: TUpstreamAttempt[];
    }
  | {
      kind: 'refused';
      reason: TUpstreamRefusalReason;
      endpoint: TUpstreamEndpoint;
      /** The provider's status: `HTTP 407 Proxy Authentication Required`, `SOCKS5 reply 4 (host unreachable)`. */
      status: string;
      /** An excerpt of the provider's answer (error headers, body), credentials cut out. */
      detail: string;
      attempts: TUpstreamAttempt[];
      bytes?: number;
    }
  | { kind: 'timeout'; endpoint: TUpstreamEndpoint; attempts: TUpstreamAttempt[]; bytes?: number }
  | { kind: 'unreachable'; endpoint: TUpstreamEndpoint; detail: string; attempts: TUpstreamAttempt[]; bytes?: number };

/** What to dial. */
export type TUpstreamDialOptions = {
  protocol: TUpstreamProtocol;
  /** Tried in order. */
  endpoints: readonly TUpstreamEndpoint[];
  /** Absent: no credentials are offered. */
  username?: string;
  password?: string;
  target: { host: string; port: number };
  /** Per endpoint: the TCP connection and the provider's answer together. */
  timeoutMs: number;
  /** The HTTP answer header naming the exit address (default X-Exit-IP). */
  exitIpHeader?: string;
};

const HEAD_LIMIT = 16 * 1024;
const BODY_EXCERPT = 1024;
const DETAIL_MAX = 300;
// Words providers use when they do not serve the area asked for ("country not supported", "no peers in location").
const AREA_WORDS = /\b(country|countries|region|state|city|location|geo|area)\b/i;

/** RFC 1928 reply codes, as the socks library names them, and their meaning. */
const SOCKS_REPLIES: Record<string, { code: number; text: string }> = {
  Failure: { code: 0x01, text: 'general failure' },
  NotAllowed: { code: 0x02, text: 'not allowed' },
  NetworkUnreachable: { code: 0x03, text: 'network unreachable' },
  HostUnreachable: { code: 0x04, text: 'host unreachable' },
  ConnectionRefused: { code: 0x05, text: 'connection refused' },
  TTLExpired: { code: 0x06, text: 'TTL expired' },
  CommandNotSupported: { code: 0x07, text: 'command not supported' },
  AddressNotSupported: { code: 0x08, text: 'address type not supported' },
};

class DialFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Text an upstream answered, safe to show and store: the password (as sent, in Basic credentials and
 * percent-encoded) cut out, control characters replaced, at most DETAIL_MAX characters.
 */
export function redactUpstreamText(text: string, username: string | undefined, password: string | undefined): string {
  let out = text;
  const secrets: string[] = [];
  if (password) {
    secrets.push(password, encodeURIComponent(password));
    if (username !== undefined) secrets.push(Buffer.from(`${username}:${password}`, 'utf8').toString('base64'));
  }
  for (const secret of secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length))
    out = out.split(secret).join('[redacted]');
  // eslint-disable-next-line no-control-regex
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return out.length > DETAIL_MAX ? `${out.slice(0, DETAIL_MAX)}…` : out;
}

function connectTcp(endpoint: TUpstreamEndpoint, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new DialFailure('timeout', `no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new DialFailure('unreachable', error.message || error.code || 'connection failed'));
    });
  });
}

// Reads until `isComplete` finds a whole message (answers its length), the socket ends (null), or the time is up.
function readUntil(
  socket: net.Socket,
  isComplete: (buf: Buffer, isEnded: boolean) => number | null,
  timeoutMs: number,
): Promise<{ message: Buffer; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const finish = (error: Error | null, used?: number) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.removeListener('error', onError);
      socket.removeListener('close', onEnd);
      if (error) return reject(error);
      socket.pause();
      resolve({ message: buf.subarray(0, used), rest: buf.subarray(used ?? buf.length) });
    };
    const timer = setTimeout(() => finish(new DialFailure('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const used = isComplete(buf, false);
      if (used !== null) finish(null, used);
      else if (buf.length > HEAD_LIMIT) finish(null, buf.length);
    };
    const onEnd = () => {
      const used = isComplete(buf, true);
      if (used !== null) finish(null, used);
      else finish(new DialFailure('unreachable', 'the upstream closed the connection without an answer'));
    };
    const onError = (error: Error) => finish(new DialFailure('unreachable', error.message));
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    socket.resume();
  });
}

function classify(text: string, isCredentials: boolean): TUpstreamRefusalReason {
  if (AREA_WORDS.test(text)) return 'area-not-served';
  return isCredentials ? 'bad-credentials' : 'other';
}

type TEndpointResult =
  | { kind: 'connected'; socket: net.Socket; exit: TUpstreamExitInfo; detail: string }
  | { kind: 'refused'; reason: TUpstreamRefusalReason; status: string; detail: string };

async function viaHttp(socket: net.Socket, options: TUpstreamDialOptions, deadline: number): Promise<TEndpointResult> {
  const { target, username, password } = options;
  const hostPort = `${net.isIPv6(target.host) ? `[${target.host}]` : target.host}:${target.port}`;
  const auth =
    username === undefined
      ? ''
      : `Proxy-Authorization: Basic ${Buffer.from(`${username}:${password ?? ''}`, 'utf8').toString('base64')}\r\n`;
  socket.write(`CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n${auth}\r\n`);
  const { message, rest } = await readUntil(
    socket,
    (buf) => {
      const end = buf.indexOf('\r\n\r\n');
      return end === -1 ? null : end + 4;
    },
    Math.max(1, deadline - performance.now()),
  );
  const head = message.toString('latin1');
  const statusLine = head.slice(0, head.indexOf('\r\n') === -1 ? head.length : head.indexOf('\r\n'));
  const code = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  if (code === 200) {
    if (rest.length) socket.unshift(rest);
    return {
      kind: 'connected',
      socket,
      exit: {
        ip: headers.get((options.exitIpHeader ?? 'x-exit-ip').toLowerCase()) ?? null,
        country: headers.get('x-exit-country') ?? null,
      },
      detail: statusLine,
    };
  }
  // The body says why (bounded: its length, the connection's end, or the time left).
  const length = Number(headers.get('content-length') ?? NaN);
  let body = rest;
  if (!(length <= rest.length) && rest.length < BODY_EXCERPT && performance.now() < deadline) {
    const more = await readUntil(
      socket,
      (buf, isEnded) =>
        isEnded || buf.length + rest.length >= Math.min(BODY_EXCERPT, Number.isFinite(length) ? length : BODY_EXCERPT)
          ? buf.length
          : null,
      Math.max(1, deadline - performance.now()),
    ).catch(() => ({ message: Buffer.alloc(0) }));
    body = Buffer.concat([rest, more.message]);
  }
  socket.destroy();
  const errorHeaders = [...headers]
    .filter(([name]) => /error|reason/.test(name))
    .map(([name, value]) => `${name}: ${value}`);
  const said = [...errorHeaders, body.subarray(0, BODY_EXCERPT).toString('utf8')].join(' ').trim();
  const status = `HTTP ${Number.isFinite(code) ? statusLine.replace(/^HTTP\/1\.[01] /, '') : '(no status line)'}`;
  return {
    kind: 'refused',
    reason: classify(said, code === 407),
    status: redactUpstreamText(status, username, password),
    detail: redactUpstreamText(said, username, password),
  };
}

async function viaSocks(
  socket: net.Socket,
  endpoint: TUpstreamEndpoint,
  options: TUpstreamDialOptions,
  deadline: number,
): Promise<TEndpointResult> {
  const { target, username, password } = options;
  try {
    // Bytes that came with the last reply are replayed by the library on the next turn: pipe before that.
    const { socket: tunnel, remoteHost } = await SocksClient.createConnection({
      proxy: { host: endpoint.host, port: endpoint.port, type: 5, userId: username, password },
      command: 'connect',
      destination: { host: target.host, port: target.port },
      timeout: Math.max(1, deadline - performance.now()),
      existing_socket: socket,
    });
    tunnel.pause();
    const bound = remoteHost?.host;
    const ip = bound && bound !== '0.0.0.0' && bound !== '::' && net.isIP(bound) ? bound : null;
    return { kind: 'connected', socket: tunnel, exit: { ip, country: null }, detail: 'SOCKS5 reply 0 (succeeded)' };
  } catch (error) {
    socket.destroy();
    const text = (error as Error).message ?? '';
    if (/timed out/i.test(text)) throw new DialFailure('timeout', 'no SOCKS5 answer in time');
    if (/Authentication failed/i.test(text))
      return {
        kind: 'refused',
        reason: 'bad-credentials',
        status: 'SOCKS5 authentication failed (RFC 1929)',
        detail: redactUpstreamText(text, username, password),
      };
    const name = /- (\w+)$/.exec(text)?.[1];
    const reply = name ? SOCKS_REPLIES[name] : undefined;
    if (reply)
      return {
        kind: 'refused',
        // A provider that does not serve the area answers "not allowed"; "host unreachable" may be either.
        reason: reply.code === 0x02 ? 'area-not-served' : 'other',
        status: `SOCKS5 reply ${reply.code} (${reply.text})`,
        detail: redactUpstreamText(text, username, password),
      };
    if (/closed|ECONNRESET|EPIPE|Socket/i.test(text)) throw new DialFailure('unreachable', text);
    return { kind: 'refused', reason: 'other', status: 'SOCKS5', detail: redactUpstreamText(text, username, password) };
  }
}

/** Dials the target through the upstream's endpoints in order (see the file's comment). */
export async function dialUpstream(options: TUpstreamDialOptions): Promise<TUpstreamDialOutcome> {
  const attempts: TUpstreamAttempt[] = [];
  let last: TUpstreamDialOutcome | null = null;
  let bytes = 0;
  for (const endpoint of options.endpoints) {
    const started = performance.now();
    const deadline = started + options.timeoutMs;
    const elapsed = () => Math.round(performance.now() - started);
    let tcp: net.Socket | null = null;
    const exchanged = () => (tcp ? tcp.bytesRead + tcp.bytesWritten : 0);
    try {
      const socket = await connectTcp(endpoint, options.timeoutMs);
      tcp = socket;
      const result =
        options.protocol === 'socks5'
          ? await viaSocks(socket, endpoint, options, deadline)
          : await viaHttp(socket, options, deadline).catch((error: unknown) => {
              socket.destroy();
              throw error;
            });
      if (result.kind === 'connected') {
        attempts.push({ endpoint, outcome: 'connected', ms: elapsed(), detail: result.detail });
        return { ...result, endpoint, connectMs: elapsed(), attempts };
      }
      attempts.push({ endpoint, outcome: 'refused', ms: elapsed(), detail: `${result.status}: ${result.detail}` });
      return { ...result, endpoint, attempts, bytes: bytes + exchanged() };
    } catch (error) {
      const failure =
        error instanceof DialFailure ? error : new DialFailure('unreachable', (error as Error).message ?? 'failed');
      const detail = redactUpstreamText(failure.message, options.username, options.password);
      attempts.push({ endpoint, outcome: failure.kind, ms: elapsed(), detail });
      bytes += exchanged();
      last =
        failure.kind === 'timeout'
          ? { kind: 'timeout', endpoint, attempts, bytes }
          : { kind: 'unreachable', endpoint, detail, attempts, bytes };
    }
  }
  return last ?? { kind: 'unreachable', endpoint: { host: '', port: 0 }, detail: 'no endpoint', attempts };
}
