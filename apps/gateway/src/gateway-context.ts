import type net from 'node:net';
import type { TAuthorizer, TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TConnectionRegistry } from './connection-registry';
import { dialRefusal, dialThroughExit, type TTarget } from './egress';
import type { GatewayCounters } from './gateway-counters';
import { GatewayRefusal } from './refusals';
import type { TTargetGuard } from './target-policy';

/** What every protocol module works with. */
export type TGatewayContext = {
  authorizer: TAuthorizer;
  registry: TConnectionRegistry;
  guard: TTargetGuard;
  handshakeTimeoutMs: number;
  connectTimeoutMs: number;
  /** Dial times and failures by egress kind (metrics). */
  counters: GatewayCounters;
};

/**
 * Dials the target through the grant's exits in order (dynamic tokens fall
 * back to the next exit; a failed one is reported). Resolves the socket, or
 * rejects with the refusal to report.
 */
export async function dialFor(
  ctx: TGatewayContext,
  conn: Connection,
  grant: TGrant,
  target: TTarget,
  isEcho = false,
): Promise<net.Socket> {
  let lastError: unknown = null;
  try {
    for (const exit of grant.exits) {
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
        return socket;
      } catch (err) {
        lastError = err;
        if (
          err instanceof GatewayRefusal &&
          (err.reason === 'target-refused' || err.reason === 'target-blocked-by-rule')
        )
          break;
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
  throw dialRefusal(lastError);
}
