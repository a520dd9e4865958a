import { createHash } from 'node:crypto';
import type net from 'node:net';
import {
  compilePoolTemplate,
  createAreaSpeller,
  encodePoolSessionId,
  renderPoolUsername,
  type TPoolArea,
  type TPoolCoverage,
  type TPoolTemplate,
} from '@proxy/contract';
import { dialUpstream, type TUpstreamDialOutcome } from '@proxy/db';
import type { TPoolHealthRow, TPoolRow } from './pools.repository';
import { GatewayRefusal } from './refusals';
import { SOCKS_REPLY } from './socks5';

/**
 * Upstream pools as the gateway uses them (docs/pools.md, "How the gateway uses pools"): each enabled pool loaded
 * with the state (template compiled once per load), a pool candidate of a connection (its area and sticky session),
 * the dial through the pool, and this process's view of each pool: its open connections (max_connections), its
 * circuit breaker (and one per country the pool refuses) and its figures over the recent window (pool_health).
 * Failover and health are per gateway process: nothing here is shared between processes.
 */

/** A pool as the gateway keeps it: the row, its template compiled, its spelling and coverage. A rotation candidate. */
export type TGatewayPool = {
  id: number;
  /** Its candidate key (`p<id>`): rotation.ts. */
  key: string;
  kind: 'residential' | 'datacenter';
  priority: number;
  weight: number;
  /** A new pool session each window changes its exit: rotation.ts may choose it in consecutive windows. */
  isSelfRotating: true;
  maxConnections: number;
  protocol: TPoolRow['protocol'];
  endpoints: TPoolRow['endpoints'];
  /** The account ({user}) and its password (opened). */
  user: string;
  password: string;
  template: TPoolTemplate;
  spell: (area: TPoolArea) => TPoolArea;
  coverage: TPoolCoverage;
  /** The answer header naming a tunnel's exit address (HTTP CONNECT pools that report it; null: not reported). */
  exitIpHeader: string | null;
  /** Minutes the provider keeps an idle sticky session (null: not stated). */
  sessionIdleMinutes: number | null;
};

/** A pool's row made ready to dial; null when its template does not compile (the API refuses such a template). */
export function toGatewayPool(row: TPoolRow): TGatewayPool | null {
  const compiled = compilePoolTemplate(row.usernameTemplate);
  if (!compiled.ok) return null;
  return {
    id: row.id,
    key: `p${row.id}`,
    kind: row.kind,
    priority: row.priority,
    weight: row.weight,
    isSelfRotating: true,
    maxConnections: row.maxConnections,
    protocol: row.protocol,
    endpoints: row.endpoints,
    user: row.username,
    password: row.password,
    template: compiled.template,
    spell: createAreaSpeller({ areaCase: row.areaCase, mapping: row.areaMapping }),
    coverage: { mode: row.coverageMode, areas: row.coverage },
    exitIpHeader: row.exitIpHeader,
    sessionIdleMinutes: row.sessionIdleMinutes,
  };
}

/**
 * The sticky session a connection asks pools for: a customer's session (its own id per token and session, kept for
 * its sesstime minutes), or without one the token's rotation window (a new id each window, kept for the window's
 * minutes, so the provider's exit rotates with it). Shared by the pool candidates of one grant; the hash is made
 * once, at the first dial through a pool.
 */
export type TPoolSession = { seed: string; minutes: number; bytes?: Buffer };

/** A pool as one connection's candidate: the pool, the area asked (our slugs) and the session. */
export type TPoolExit = { id: number; kind: 'pool'; pool: TGatewayPool; area: TPoolArea; session: TPoolSession };

// Usernames rendered per pool (a pool object lives until the next load): connections of one session, or of one
// token's window, repeat theirs, so the hash and the rendering run once for them. Bounded; cleared when full.
const USERNAME_CACHE_MAX = 10_000;
const usernamesOf = new WeakMap<TGatewayPool, Map<string, string | null>>();

/** The username the pool gets for this candidate, or null when the area cannot be written in its template. */
export function poolUsernameOf(exit: TPoolExit): string | null {
  const { pool, session, area } = exit;
  let cache = usernamesOf.get(pool);
  if (!cache) usernamesOf.set(pool, (cache = new Map()));
  const key = `${session.seed} ${session.minutes} ${area.country} ${area.state} ${area.city}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  session.bytes ??= createHash('sha256').update(session.seed).digest();
  const spelled = pool.spell(area);
  const rendered = renderPoolUsername(pool.template, {
    user: pool.user,
    country: spelled.country,
    state: spelled.state,
    city: spelled.city,
    session: encodePoolSessionId(session.bytes, pool.template.sessionLength),
    minutes: session.minutes,
  });
  const username = rendered.ok ? rendered.username : null;
  if (cache.size >= USERNAME_CACHE_MAX) cache.clear();
  cache.set(key, username);
  return username;
}

/** Why a dial through a pool failed, as the health figures count it. */
type TPoolFailure = 'bad-credentials' | 'area-not-served' | 'refused' | 'timeout' | 'unreachable';

// The health window: figures of the last HEALTH_SLOTS slots of HEALTH_SLOT_MS each.
const HEALTH_SLOT_MS = 60_000;
const HEALTH_SLOTS = 5;
/** The window pool_health's figures cover. */
export const POOL_HEALTH_WINDOW_MS = HEALTH_SLOT_MS * HEALTH_SLOTS;

type TSlot = { at: number; attempts: number; successes: number; connectMs: number; refusals: Record<string, number> };

/** A circuit: consecutive failures, open until (ms of the gateway's clock, 0: closed), a half-open trial under way. */
type TCircuit = { failures: number; openUntil: number; isTrial: boolean };

class PoolRuntime {
  open = 0;
  readonly circuit: TCircuit = { failures: 0, openUntil: 0, isTrial: false };
  readonly areas = new Map<string, TCircuit>();
  readonly slots: TSlot[] = [];
}

/** Settings of the breaker. */
export type TPoolBreakerOptions = {
  now: () => number;
  /** Consecutive failed dials that open a pool's circuit (or a pool's country's, for area refusals). */
  failures: number;
  /** How long an open circuit skips the pool; then one trial connection (half-open) closes or reopens it. */
  openMs: number;
};

/** Why a pool candidate is skipped without a dial. */
export type TPoolSkip = 'circuit-open' | 'area-open' | 'full';

/**
 * This process's view of every pool: admission (circuit breaker, max_connections), the outcome of each dial, and
 * the figures reported to pool_health.
 */
export function createPoolRuntime(options: TPoolBreakerOptions) {
  const { now } = options;
  const byId = new Map<number, PoolRuntime>();
  const runtimeOf = (poolId: number) => {
    let r = byId.get(poolId);
    if (!r) byId.set(poolId, (r = new PoolRuntime()));
    return r;
  };

  // Closed, open, or half-open (past openUntil: one trial at a time passes).
  function passes(circuit: TCircuit, t: number): boolean {
    if (circuit.openUntil === 0) return true;
    if (t < circuit.openUntil || circuit.isTrial) return false;
    circuit.isTrial = true;
    return true;
  }

  function slotOf(r: PoolRuntime, t: number): TSlot {
    const at = Math.floor(t / HEALTH_SLOT_MS);
    let slot = r.slots[r.slots.length - 1];
    if (!slot || slot.at !== at) {
      slot = { at, attempts: 0, successes: 0, connectMs: 0, refusals: {} };
      r.slots.push(slot);
      if (r.slots.length > HEALTH_SLOTS) r.slots.shift();
    }
    return slot;
  }

  function fail(circuit: TCircuit, t: number): void {
    circuit.failures += 1;
    if (circuit.isTrial || circuit.failures >= options.failures) {
      circuit.openUntil = t + options.openMs;
      circuit.failures = 0;
    }
    circuit.isTrial = false;
  }

  function succeed(circuit: TCircuit): void {
    circuit.failures = 0;
    circuit.openUntil = 0;
    circuit.isTrial = false;
  }

  return {
    /**
     * Whether a connection may dial the pool for this country now: its circuit and the country's are closed (or
     * this is the half-open trial) and it holds fewer than max_connections. On 'ok' a connection is counted open:
     * `settle` must follow.
     */
    admit(pool: TGatewayPool, country: string): 'ok' | TPoolSkip {
      const r = runtimeOf(pool.id);
      if (r.open >= pool.maxConnections) return 'full';
      const t = now();
      const area = r.areas.get(country);
      // An open country of the pool is skipped before the pool's own circuit is asked (its trial is not spent here).
      if (area && area.openUntil !== 0 && (t < area.openUntil || area.isTrial)) return 'area-open';
      if (!passes(r.circuit, t)) return 'circuit-open';
      // Past its open time, this connection is the country's trial (half-open).
      if (area && area.openUntil !== 0) area.isTrial = true;
      r.open += 1;
      return 'ok';
    },
    /** The dial's outcome after `admit`: figures, circuits, and the open count (given back on close of the tunnel). */
    settle(pool: TGatewayPool, country: string, outcome: TUpstreamDialOutcome | 'not-written'): void {
      const r = runtimeOf(pool.id);
      const t = now();
      const slot = slotOf(r, t);
      let area = r.areas.get(country);
      if (outcome === 'not-written') {
        // The area cannot be written in the template: no dial, nothing learnt about the pool.
        r.open -= 1;
        if (r.circuit.isTrial) r.circuit.isTrial = false;
        if (area?.isTrial) area.isTrial = false;
        return;
      }
      slot.attempts += 1;
      if (outcome.kind === 'connected') {
        slot.successes += 1;
        slot.connectMs += outcome.connectMs;
        succeed(r.circuit);
        if (area) succeed(area);
        const socket = outcome.socket;
        socket.once('close', () => (r.open -= 1));
        return;
      }
      r.open -= 1;
      const reason: TPoolFailure =
        outcome.kind === 'refused'
          ? outcome.reason === 'other'
            ? 'refused'
            : outcome.reason
          : outcome.kind === 'timeout'
            ? 'timeout'
            : 'unreachable';
      slot.refusals[reason] = (slot.refusals[reason] ?? 0) + 1;
      if (reason === 'area-not-served') {
        // The pool answered: it is up, but not for this country.
        if (!area) r.areas.set(country, (area = { failures: 0, openUntil: 0, isTrial: false }));
        fail(area, t);
        succeed(r.circuit);
      } else {
        fail(r.circuit, t);
        if (area?.isTrial) area.isTrial = false;
      }
    },
    /** This process's figures of each pool over the health window (pool_health). */
    health(loaded: Iterable<TGatewayPool>): TPoolHealthRow[] {
      const t = now();
      const from = Math.floor(t / HEALTH_SLOT_MS) - HEALTH_SLOTS + 1;
      const rows: TPoolHealthRow[] = [];
      for (const pool of loaded) {
        const r = runtimeOf(pool.id);
        const row: TPoolHealthRow = {
          poolId: pool.id,
          attempts: 0,
          successes: 0,
          connectMsTotal: 0,
          refusals: {},
          open: r.open,
          circuitOpenUntil: r.circuit.openUntil > t ? new Date(r.circuit.openUntil) : null,
          openAreas: [...r.areas].filter(([, c]) => c.openUntil > t).map(([country]) => country),
        };
        for (const slot of r.slots) {
          if (slot.at < from) continue;
          row.attempts += slot.attempts;
          row.successes += slot.successes;
          row.connectMsTotal += Math.round(slot.connectMs);
          for (const [reason, n] of Object.entries(slot.refusals))
            row.refusals[reason] = (row.refusals[reason] ?? 0) + n;
        }
        rows.push(row);
      }
      return rows;
    },
    /** Open connections through a pool in this process (tests, diagnostics). */
    openCount: (poolId: number) => byId.get(poolId)?.open ?? 0,
  };
}

/** The pool runtime type. */
export type TPoolRuntime = ReturnType<typeof createPoolRuntime>;

/**
 * Dials the target through a pool candidate (admitted by the runtime first): renders the username, tries the
 * endpoints in order. Resolves the tunnel, paused; rejects with `area-not-served` (the pool said so, or the area
 * cannot be written in its username) or `pool-down` (anything else: refused, no answer, unreachable). The refusal
 * never carries the password nor the provider's words.
 */
export async function dialPool(
  runtime: TPoolRuntime,
  exit: TPoolExit,
  target: { host: string; port: number },
  timeoutMs: number,
): Promise<{ socket: net.Socket; connectMs: number; exitIp: string | null }> {
  const { pool } = exit;
  const country = exit.area.country;
  const username = poolUsernameOf(exit);
  if (username === null) {
    runtime.settle(pool, country, 'not-written');
    throw new GatewayRefusal('area-not-served', SOCKS_REPLY.notAllowed);
  }
  let outcome: TUpstreamDialOutcome;
  try {
    outcome = await dialUpstream({
      protocol: pool.protocol,
      endpoints: pool.endpoints,
      username,
      password: pool.password,
      target,
      timeoutMs,
      exitIpHeader: pool.exitIpHeader ?? undefined,
    });
  } catch {
    outcome = { kind: 'unreachable', endpoint: pool.endpoints[0], detail: '', attempts: [] };
  }
  runtime.settle(pool, country, outcome);
  if (outcome.kind === 'connected') {
    // Only what the operator said the pool reports is believed (a SOCKS5 bound address may be the provider's own).
    const exitIp = pool.exitIpHeader && pool.protocol === 'http-connect' ? outcome.exit.ip : null;
    return { socket: outcome.socket, connectMs: outcome.connectMs, exitIp };
  }
  const refusal =
    outcome.kind === 'refused' && outcome.reason === 'area-not-served'
      ? new GatewayRefusal('area-not-served', SOCKS_REPLY.notAllowed)
      : new GatewayRefusal('pool-down');
  refusal.upstreamBytes = outcome.bytes ?? 0;
  throw refusal;
}
