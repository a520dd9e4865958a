import type net from 'node:net';
import type { TAuthorizer, TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TConnectionRegistry } from './connection-registry';
import { dialRefusal, dialThroughExit, type TTarget } from './egress';
import { GatewayRefusal } from './refusals';
import type { TTargetGuard } from './target-policy';

/** What every protocol module works with. */
export type TGatewayContext = {
  authorizer: TAuthorizer;
  registry: TConnectionRegistry;
  guard: TTargetGuard;
  handshakeTimeoutMs: number;
  connectTimeoutMs: number;
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
      try {
        return await dialThroughExit(
          exit,
          target,
          isEcho ? null : ctx.guard,
          ctx.connectTimeoutMs,
          conn,
          grant.targetRules ?? null,
        );
      } catch (err) {
        lastError = err;
        if (
          err instanceof GatewayRefusal &&
          (err.reason === 'target-refused' || err.reason === 'target-blocked-by-rule')
        )
          break;
        if (conn.socket.destroyed) break;
        grant.onExitFailed?.(exit);
      }
    }
  } finally {
    conn.dialing = null;
    conn.deadline = Infinity;
  }
  throw dialRefusal(lastError);
}
