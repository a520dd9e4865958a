import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import {
  findTokenStateRefusal,
  TOKEN_TEST_REASONS,
  TOKEN_TEST_TIMEOUT_MS,
  parseIpAddress,
  type TLang,
  type TTokenTestReason,
  type TTokenTestResult,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { countryName } from '../areas/area-names';
import { countNodesInArea, findDirectNodeInArea, findExitNodes } from '../inventory/inventory.repository';
import { countryCodeOfAddress } from '../ip-quality/ip-quality.service';
import { findUserTokens, type TTokenRow } from '../proxies/proxies.repository';

/**
 * The proxy test (GET /token/test/{id}): a real request through the gateway
 * with the token's own credentials to the API's echo endpoint. HTTP tokens use
 * HTTP forward proxying (CONNECT for an https echo URL), SOCKS5 tokens a SOCKS5
 * CONNECT. The gateway meters the bytes like any customer traffic.
 */

type TProbe = { statusCode: number; reasonHeader: string | undefined; body: string };
type TTestDeps = Pick<TDeps, 'db' | 'config' | 'clock'>;

/** A failure of the probe with the reason the console shows. */
class ProbeFailure extends Error {
  constructor(
    readonly reason: TTokenTestReason,
    readonly statusCode: number | null = null,
  ) {
    super(reason);
  }
}

const BODY_LIMIT = 64 * 1024;

function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function isKnownReason(text: string | undefined): text is TTokenTestReason {
  return text !== undefined && Object.hasOwn(TOKEN_TEST_REASONS, text);
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

// Reads an answer (bounded) and settles with its status, reason header and body.
function readResponse(req: http.ClientRequest): Promise<TProbe> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= BODY_LIMIT) chunks.push(chunk);
      });
      res.on('end', () => {
        const header = res.headers['x-proxy-reason'];
        resolve({
          statusCode: res.statusCode ?? 0,
          reasonHeader: Array.isArray(header) ? header[0] : header,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// An HTTP GET of the echo URL over an already tunnelled socket.
function getOverSocket(url: URL, socket: net.Socket, signal: AbortSignal): Promise<TProbe> {
  const transport = url.protocol === 'https:' ? https : http;
  const stream = url.protocol === 'https:' ? tls.connect({ socket, servername: url.hostname }) : socket;
  const req = transport.request({
    method: 'GET',
    host: url.hostname,
    port: defaultPort(url),
    path: url.pathname + url.search,
    headers: { host: url.host, connection: 'close' },
    // No agent: with one (agent: false makes a fresh one) Node ignores createConnection and dials the echo directly.
    createConnection: () => stream,
    signal,
  });
  return readResponse(req);
}

async function probeHttp(
  gateway: { host: string; port: number },
  url: URL,
  token: TTokenRow,
  signal: AbortSignal,
): Promise<TProbe> {
  const auth = basicAuth(token.username, token.password);
  if (url.protocol === 'http:') {
    // Forward proxying: the absolute URI goes to the gateway, which fetches it from the exit.
    const req = http.request({
      host: gateway.host,
      port: gateway.port,
      method: 'GET',
      path: url.href,
      headers: { host: url.host, 'proxy-authorization': auth, connection: 'close' },
      agent: false,
      signal,
    });
    return readResponse(req);
  }
  // An https echo needs a tunnel: CONNECT, then TLS to the echo's host inside it.
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const req = http.request({
      host: gateway.host,
      port: gateway.port,
      method: 'CONNECT',
      path: `${url.hostname}:${defaultPort(url)}`,
      headers: { host: `${url.hostname}:${defaultPort(url)}`, 'proxy-authorization': auth },
      agent: false,
      signal,
    });
    req.on('connect', (res, tunnel) => {
      if (res.statusCode === 200) return resolve(tunnel);
      tunnel.destroy();
      const header = res.headers['x-proxy-reason'];
      const reason = Array.isArray(header) ? header[0] : header;
      reject(
        new ProbeFailure(
          isKnownReason(reason) ? reason : res.statusCode === 407 ? 'auth-required' : 'not-allowed',
          res.statusCode ?? null,
        ),
      );
    });
    req.on('error', reject);
    req.end();
  });
  return getOverSocket(url, socket, signal);
}

/** SOCKS5 reply codes (RFC 1928) as the gateway's reason names; 0x02 is refined from the token's own state. */
export function socksReplyReason(
  code: number,
  token: Pick<TTokenRow, 'status' | 'deletedAt' | 'expiresAt' | 'trafficLimitBytes' | 'trafficUsedBytes'>,
  now: Date,
): TTokenTestReason {
  switch (code) {
    case 0x02: {
      // One reply code covers every refusal: the token's state tells which one it most likely was.
      return findTokenStateRefusal(token, now.getTime()) ?? 'not-allowed';
    }
    case 0x03:
      return 'no-exit';
    case 0x04:
    case 0x05:
      return 'upstream-failed';
    default:
      return 'bad-request';
  }
}

const SOCKS_REPLY_NAMES: Record<string, number> = {
  Failure: 1,
  NotAllowed: 2,
  NetworkUnreachable: 3,
  HostUnreachable: 4,
  ConnectionRefused: 5,
  TTLExpired: 6,
  CommandNotSupported: 7,
  AddressNotSupported: 8,
};

async function probeSocks(
  gateway: { host: string; port: number },
  url: URL,
  token: TTokenRow,
  now: Date,
  signal: AbortSignal,
): Promise<TProbe> {
  let socket: net.Socket;
  try {
    ({ socket } = await SocksClient.createConnection({
      proxy: { host: gateway.host, port: gateway.port, type: 5, userId: token.username, password: token.password },
      command: 'connect',
      destination: { host: url.hostname.replace(/^\[|\]$/g, ''), port: defaultPort(url) },
      timeout: TOKEN_TEST_TIMEOUT_MS,
    }));
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH/.test(message)) throw new ProbeFailure('gateway-unreachable');
    if (/timed out/i.test(message)) throw new ProbeFailure('timeout');
    if (/Authentication failed/i.test(message)) throw new ProbeFailure('bad-credentials');
    if (/no accepted authentication type/i.test(message)) throw new ProbeFailure('auth-required');
    const reply = /rejected connection - (\w+)/.exec(message)?.[1];
    if (reply && reply in SOCKS_REPLY_NAMES)
      throw new ProbeFailure(socksReplyReason(SOCKS_REPLY_NAMES[reply], token, now));
    throw new ProbeFailure('not-allowed');
  }
  if (signal.aborted) {
    socket.destroy();
    throw new ProbeFailure('timeout');
  }
  return getOverSocket(url, socket, signal);
}

function failure(
  reason: TTokenTestReason,
  lang: TLang,
  extra: { latency_ms?: number | null; status_code?: number | null } = {},
): TTokenTestResult {
  const text = TOKEN_TEST_REASONS[reason];
  return {
    ok: false,
    latency_ms: extra.latency_ms ?? null,
    exit_ip: null,
    country: null,
    status_code: extra.status_code ?? null,
    error: { reason, message: text[lang], message_zh: text.zh, message_en: text.en },
  };
}

/** Country of a public address from the offline IP data; null for non-public addresses or when the data has none. */
export async function countryOfAddress(address: string): Promise<TTokenTestResult['country']> {
  // No IP data installed: the test still answers, without the country.
  const code = await countryCodeOfAddress(address);
  if (!code) return null;
  const name = countryName(code);
  return { code, name_zh: name.zh, name_en: name.en };
}

function networkErrorReason(error: unknown): TTokenTestReason {
  if (error instanceof ProbeFailure) return error.reason;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') return 'gateway-unreachable';
  // The gateway closed the connection before answering (it refuses this way when it cannot say more).
  return 'not-allowed';
}

/**
 * Tests one of the user's tokens through the gateway. Another user's id is
 * NOT_FOUND; any outcome of the probe itself is an answer with ok true or false.
 */
export async function testToken(
  deps: TTestDeps,
  userId: number,
  tokenId: number,
  lang: TLang,
): Promise<TTokenTestResult> {
  const [token] = await findUserTokens(deps.db, userId, [tokenId]);
  if (!token) throw new AppError('NOT_FOUND');
  // A gateway looks credentials it does not know yet up before refusing them: no grace period is needed after a purchase or reset.
  return probeToken(deps, token, lang);
}

/** One request through the gateway with the token's credentials to the echo endpoint. */
async function probeToken(deps: TTestDeps, token: TTokenRow, lang: TLang): Promise<TTokenTestResult> {
  const url = new URL(deps.config.tokenTestEchoUrl);
  const gateway = deps.config.tokenTestGateway;
  const started = performance.now();
  // Aborting destroys every request (and its socket) the probe opened, so nothing lingers past the answer.
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeFailure('timeout')), TOKEN_TEST_TIMEOUT_MS);
  });
  const probe =
    token.network === 'SOCKS5'
      ? probeSocks(gateway, url, token, deps.clock.now(), abort.signal)
      : probeHttp(gateway, url, token, abort.signal);
  let result: TProbe;
  try {
    result = await Promise.race([probe, timeout]);
  } catch (error) {
    const reason = networkErrorReason(error);
    return failure(reason, lang, { status_code: error instanceof ProbeFailure ? error.statusCode : null });
  } finally {
    clearTimeout(timer);
    abort.abort();
    probe.catch(() => {});
  }
  const latency = Math.round(performance.now() - started);
  if (result.statusCode !== 200) {
    const reason: TTokenTestReason = isKnownReason(result.reasonHeader)
      ? result.reasonHeader
      : result.statusCode === 407
        ? 'auth-required'
        : 'bad-response';
    return failure(reason, lang, { latency_ms: latency, status_code: result.statusCode });
  }
  let ip: unknown;
  try {
    ip = (JSON.parse(result.body) as { data?: { ip?: unknown } }).data?.ip;
  } catch {
    ip = undefined;
  }
  if (typeof ip !== 'string' || !parseIpAddress(ip))
    return failure('bad-response', lang, { latency_ms: latency, status_code: result.statusCode });
  const exitIp = parseIpAddress(ip)!.toString();
  const country =
    (await countryOfAddress(exitIp)) ?? ((await leavesDirectly(deps, token)) ? directExitCountry(deps) : null);
  return { ok: true, latency_ms: latency, exit_ip: exitIp, country, status_code: result.statusCode };
}

/**
 * Whether the token's traffic leaves from the gateway host itself: a static token's own node is a
 * direct one, or a dynamic token's area has no exit but the direct one.
 */
async function leavesDirectly(deps: TTestDeps, token: TTokenRow): Promise<boolean> {
  if (token.product === 'static') {
    if (token.exitNodeId === null) return false;
    const [node] = await findExitNodes(deps.db, [token.exitNodeId]);
    return node?.egress === 'direct';
  }
  const area = {
    kind: token.category === 'idc' ? ('datacenter' as const) : ('residential' as const),
    country: token.country,
    state: token.state,
    city: token.city,
  };
  return (await findDirectNodeInArea(deps.db, area)) !== undefined && (await countNodesInArea(deps.db, area)) === 1;
}

/** The gateway host's country as configured (DIRECT_EXIT_COUNTRY): where a direct exit's traffic comes from. */
function directExitCountry(deps: TTestDeps): NonNullable<TTokenTestResult['country']> {
  const code = deps.config.DIRECT_EXIT_COUNTRY.toUpperCase();
  const name = countryName(code);
  return { code, name_zh: name.zh, name_en: name.en };
}
