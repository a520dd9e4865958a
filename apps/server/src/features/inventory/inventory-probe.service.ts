import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import tls from 'node:tls';
import { parseIpAddress } from '@proxy/contract';
import { dialUpstream, type TUpstreamDialOutcome } from '@proxy/db';
import { noteAuditEffect } from '../audit/audit.service';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { openExitPassword } from './inventory-secrets';
import {
  listProbeTargets,
  lockExitNode,
  recordProbe,
  type TExitHealth,
  type TExitNodeRow,
} from './inventory.repository';

/**
 * The inventory probe: a real request through each active upstream exit to an
 * IP echo (INVENTORY_PROBE_URL, by default the API's own /api/proxy/echo). It
 * opens a tunnel with the upstream dial of the db package (HTTP CONNECT with Basic
 * Proxy-Authorization, or SOCKS5 with RFC 1929 credentials), then GETs the
 * echo inside it (TLS for https). A success records the latency and the exit
 * IP the echo saw and marks the node up; INVENTORY_PROBE_FAILURES failed
 * attempts in a row mark it down. A pass retries a failing node at once up to
 * that many attempts, so a dead exit is marked within one probe interval.
 */

type TProbeDeps = Pick<TDeps, 'db' | 'config' | 'clock'>;

/** What one attempt through a node found. */
export type TProbeOutcome = { ok: true; latencyMs: number; exitIp: string } | { ok: false; error: string };

const BODY_LIMIT = 16 * 1024;
const ERROR_MAX = 200;

class ProbeError extends Error {}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** A refused or failed dial as the probe words it (the upstream's status; never a credential). */
export function describeDialFailure(outcome: Exclude<TUpstreamDialOutcome, { kind: 'connected' }>): string {
  if (outcome.kind === 'refused') {
    const code = /^HTTP (\d{3})/.exec(outcome.status)?.[1];
    return code ? `upstream answered ${code} to CONNECT` : `${outcome.status}: ${outcome.detail}`;
  }
  if (outcome.kind === 'timeout') return outcome.attempts.at(-1)?.detail ?? 'no answer in time';
  return outcome.detail;
}

/** GET of an IP echo over an open tunnel (TLS for https): status and (bounded) body. */
export function getOverTunnel(
  url: URL,
  tunnel: net.Socket,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  const secure = url.protocol === 'https:';
  const stream = secure ? tls.connect({ socket: tunnel, servername: url.hostname }) : tunnel;
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      method: 'GET',
      host: url.hostname,
      port: defaultPort(url),
      path: url.pathname + url.search,
      headers: { host: url.host, connection: 'close', accept: 'application/json, text/plain' },
      // No agent: with one (even agent: false) Node dials its own socket and ignores createConnection.
      createConnection: () => stream,
      signal,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= BODY_LIMIT) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
    // The dial answers the tunnel paused; nothing comes before this request is sent.
    tunnel.resume();
  });
}

/** The address an echo answered: plain text, JSON {ip}, or the API's envelope {data: {ip}}; null when none. */
export function parseEchoAddress(body: string): string | null {
  const text = body.trim();
  let candidate: unknown = text;
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as { ip?: unknown; data?: { ip?: unknown } };
      candidate = json.ip ?? json.data?.ip;
    } catch {
      return null;
    }
  }
  if (typeof candidate !== 'string') return null;
  const address = parseIpAddress(candidate.trim());
  return address ? address.toString() : null;
}

function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException | null;
  const text = e?.message || e?.code || String(error);
  return text.slice(0, ERROR_MAX);
}

/** One request through an upstream node to the echo URL, within timeoutMs. */
export async function probeThroughNode(node: TExitNodeRow, echoUrl: string, timeoutMs: number): Promise<TProbeOutcome> {
  const url = new URL(echoUrl);
  const abort = new AbortController();
  const opened: net.Socket[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const started = performance.now();
  const attempt = (async () => {
    const dialled = await dialUpstream({
      protocol: node.egress === 'socks5' ? 'socks5' : 'http-connect',
      endpoints: [{ host: node.host, port: node.port }],
      username: node.username ?? undefined,
      password: node.password ?? undefined,
      target: { host: url.hostname.replace(/^\[|\]$/g, ''), port: defaultPort(url) },
      timeoutMs,
    });
    if (dialled.kind !== 'connected') throw new ProbeError(describeDialFailure(dialled));
    opened.push(dialled.socket);
    return getOverTunnel(url, dialled.socket, abort.signal);
  })();
  try {
    const answer = await Promise.race([attempt, timeout]);
    if (answer.status !== 200) return { ok: false, error: `echo answered HTTP ${answer.status}` };
    const exitIp = parseEchoAddress(answer.body);
    if (!exitIp) return { ok: false, error: 'echo answered no IP address' };
    return { ok: true, latencyMs: Math.round(performance.now() - started), exitIp };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  } finally {
    clearTimeout(timer);
    abort.abort();
    attempt.catch(() => {});
    for (const socket of opened) socket.destroy();
  }
}

/** The health columns after an attempt series, and whether gateways must reload. */
export function nextHealth(
  node: Pick<TExitNodeRow, 'health' | 'exitIp' | 'probeFailures' | 'latencyMs'>,
  outcome: TProbeOutcome,
  failedAttempts: number,
  threshold: number,
): {
  health: TExitHealth;
  exitIp: string | null;
  latencyMs: number | null;
  probeFailures: number;
  probeError: string | null;
  isGatewayChange: boolean;
} {
  if (outcome.ok) {
    return {
      health: 'up',
      exitIp: outcome.exitIp,
      latencyMs: outcome.latencyMs,
      probeFailures: 0,
      probeError: null,
      isGatewayChange: node.health === 'down' || node.exitIp !== outcome.exitIp,
    };
  }
  const failures = node.probeFailures + failedAttempts;
  const health: TExitHealth = failures >= threshold ? 'down' : node.health;
  return {
    health,
    exitIp: node.exitIp,
    latencyMs: node.latencyMs,
    probeFailures: failures,
    probeError: outcome.error,
    isGatewayChange: health === 'down' && node.health !== 'down',
  };
}

/**
 * Probes one node (up to INVENTORY_PROBE_FAILURES attempts until one
 * succeeds) and records what it found; bumps the gateway version in the same
 * transaction when the node went up or down or its exit IP changed. Direct
 * nodes are not probed. Answers whether gateways must reload.
 */
export async function probeNode(deps: TProbeDeps, node: TExitNodeRow): Promise<boolean> {
  if (node.egress === 'direct') return false;
  const threshold = deps.config.INVENTORY_PROBE_FAILURES;
  let outcome: TProbeOutcome = { ok: false, error: 'not probed' };
  let failed = 0;
  // The stored password is sealed: opened for the dial only (a wrong key fails the probe, naming the setting).
  let dialled: TExitNodeRow | null = null;
  try {
    dialled = { ...node, password: openExitPassword(deps, node.password) };
  } catch (error) {
    outcome = { ok: false, error: describeError(error) };
    failed = threshold;
  }
  while (dialled && failed < threshold) {
    outcome = await probeThroughNode(dialled, deps.config.inventoryProbeUrl, deps.config.INVENTORY_PROBE_TIMEOUT_MS);
    if (outcome.ok) break;
    failed += 1;
  }
  // An operator's "probe now": the dial's outcome goes into the audit entry written with the result below.
  noteAuditEffect('probe', outcome.ok ? 'up' : `down: ${outcome.error}`);
  return deps.db.transaction(async (tx) => {
    // The row as it is now (an operator may have edited it meanwhile): an edited endpoint was not what we probed.
    const current = await lockExitNode(tx, node.id);
    if (
      !current ||
      current.host !== node.host ||
      current.port !== node.port ||
      current.username !== node.username ||
      current.password !== node.password
    )
      return false;
    const next = nextHealth(current, outcome, failed, threshold);
    await recordProbe(tx, node.id, {
      health: next.health,
      exitIp: next.exitIp,
      latencyMs: next.latencyMs,
      probeFailures: next.probeFailures,
      probeError: next.probeError,
      checkedAt: deps.clock.now(),
    });
    if (next.isGatewayChange) await bumpGatewayVersion(tx);
    return next.isGatewayChange;
  });
}

/** One pass over every active upstream node, INVENTORY_PROBE_CONCURRENCY at a time; answers the nodes probed. */
export async function runInventoryProbe(deps: TProbeDeps): Promise<number> {
  const targets = await listProbeTargets(deps.db);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const node = targets[next++];
      await probeNode(deps, node);
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.config.INVENTORY_PROBE_CONCURRENCY, targets.length) }, worker));
  return targets.length;
}
