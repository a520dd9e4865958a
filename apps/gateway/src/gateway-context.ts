import type net from 'node:net';
import type { TAuthorizer, TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TConnectionRegistry } from './connection-registry';
import { dialRefusal, dialThroughExit, type TExit, type TTarget } from './egress';
import type { GatewayCounters } from './gateway-counters';
import { GatewayRefusal } from './refusals';
import type { TTargetGuard } from './target-policy';
import { dialPool, type TPoolRuntime } from './upstream-pools';
import type { TStickySessions } from './sticky-sessions';
import type { TExitClaims } from './exit-claims';

/** Candidates a connection dials at most before it is refused (GATEWAY_DIAL_TRIES). */
export const DEFAULT_DIAL_TRIES = 3;

/** What every protocol module works with. */
export type TGatewayContext = {
  authorizer: TAuthorizer;
  registry: TConnectionRegistry;
  guard: TTargetGuard;
  handshakeTimeoutMs: number;
  connectTimeoutMs: number;
  /** Candidates (exits, pools) dialled at most per connection before it is refused. */
  dialTries: number;
  /** This process's view of the upstream pools (breaker, open connections, figures). */
  pools: TPoolRuntime;
  /** Dial times and failures by egress kind (metrics). */
  counters: GatewayCounters;
  /** The session hold report's records (absent: not reported). */
  sessions?: TStickySessions;
  /** Exits claimed by an account's live sticky sessions (absent: exits may be shared). */
  claims?: TExitClaims;
};

// The client's own doing or the rules': no other candidate would do better.
function isFinal(err: unknown): boolean {
  return err instanceof GatewayRefusal && (err.reason === 'target-refused' || err.reason === 'target-blocked-by-rule');
}

/**
 * Dials the target through the grant's candidates in order (exits and pools; dynamic tokens fall back to the next,
 * up to `dialTries` dials, before any byte of the client's request has gone upstream: the caller writes only after
 * this resolves). A pool whose circuit is open or that holds its max_connections here is skipped without a dial.
 * A failed exit is reported. On success the connection records its carrier (attribution, the usage log) and
 * whether a sticky session left by another carrier than its first choice. Resolves the socket, or rejects with
 * the refusal to report.
 */
export async function dialFor(
  ctx: TGatewayContext,
  conn: Connection,
  grant: TGrant,
  target: TTarget,
  isEcho = false,
): Promise<net.Socket> {
  let lastError: unknown = null;
  // Why pools were skipped without a dial: the refusal when nothing was dialled.
  let skipped: GatewayRefusal | null = null;
  let tries = 0;
  // A sticky session takes no exit another live sticky session of its account holds (exit-claims.ts).
  const { claims } = ctx;
  const sticky = claims && grant.sticky && grant.userId !== undefined && !isEcho ? grant.sticky : null;
  const sessionKey = sticky ? `${grant.tokenId}:${sticky.session}:${sticky.windowStart}` : '';
  const isFree = (exitKey: string) =>
    sticky ? claims!.claim(grant.userId!, sessionKey, exitKey, sticky.windowEnd) : true;
  let isShared = false;
  try {
    for (const exit of grant.exits) {
      if (tries >= ctx.dialTries) break;
      if (exit.kind === 'pool') {
        const admitted = ctx.pools.admit(exit.pool, exit.area.country);
        if (admitted !== 'ok') {
          skipped ??= new GatewayRefusal(admitted === 'area-open' ? 'area-not-served' : 'pool-down');
          continue;
        }
        tries += 1;
        const startedAt = performance.now();
        try {
          if (!isEcho) await ctx.guard.checkRulesRemote(target.host, grant.targetRules ?? null);
        } catch (err) {
          ctx.pools.settle(exit.pool, exit.area.country, 'not-written');
          lastError = err;
          break;
        }
        // The pool's dial bounds itself (connectTimeoutMs per endpoint): the sweep's deadline waits for it.
        conn.deadline = Infinity;
        try {
          const { socket, exitIp } = await dialPool(ctx.pools, exit, target, ctx.connectTimeoutMs);
          if (exitIp !== null && !(await isFree(`ip:${exitIp}`))) {
            // The pool gave an address another session of the account holds: the next candidate.
            socket.destroy();
            isShared = true;
            if (conn.socket.destroyed) break;
            continue;
          }
          ctx.counters.observeDial('pool', (performance.now() - startedAt) / 1000);
          carriedBy(ctx, conn, grant, exit, exitIp);
          return socket;
        } catch (err) {
          lastError = err;
          ctx.counters.dialFailures.pool += 1;
          if (err instanceof GatewayRefusal && err.upstreamBytes > 0)
            ctx.registry.lost(conn, exit, grant.country ?? '', err.upstreamBytes);
          if (conn.socket.destroyed) break;
          continue;
        }
      }
      if (sticky && !(await isFree(`exit:${exit.id}`))) {
        isShared = true;
        if (conn.socket.destroyed) break;
        continue;
      }
      tries += 1;
      conn.deadline = ctx.registry.clock() + ctx.connectTimeoutMs;
      const startedAt = performance.now();
      try {
        const socket = await dialThroughExit(
          exit,
          target,
          isEcho ? null : ctx.guard,
          ctx.connectTimeoutMs,
          conn,
          grant.targetRules ?? null,
        );
        ctx.counters.observeDial(exit.kind, (performance.now() - startedAt) / 1000);
        carriedBy(ctx, conn, grant, exit, exit.exitIp ?? null);
        return socket;
      } catch (err) {
        lastError = err;
        if (isFinal(err)) break;
        if (conn.socket.destroyed) break;
        // A failure of the way out (refused, unreachable, timed out), not of the rules or of a client that left.
        ctx.counters.dialFailures[exit.kind] += 1;
        grant.onExitFailed?.(exit);
      }
    }
  } finally {
    conn.dialing = null;
    conn.deadline = Infinity;
  }
  throw dialRefusal(lastError ?? (isShared ? new GatewayRefusal('exit-in-use') : skipped));
}

function carriedBy(ctx: TGatewayContext, conn: Connection, grant: TGrant, exit: TExit, exitIp: string | null): void {
  if (conn.carrier !== exit) conn.tally = null;
  conn.carrier = exit;
  conn.areaCountry = grant.country ?? '';
  if (grant.stickyChoice && exit !== grant.stickyChoice) conn.exitChanged = true;
  if (grant.sticky && grant.userId !== undefined && ctx.sessions) {
    const idle = exit.kind === 'pool' ? exit.pool.sessionIdleMinutes : null;
    ctx.sessions.seen(conn, grant.tokenId, grant.userId, grant.sticky, exit, exitIp, idle);
  }
}
