import type { TDb } from '@proxy/db';
import type { TGatewayState } from './gateway-state';
import { readVersion } from './state-version.repository';

/** How long the readiness check waits for the database before calling it unreachable. */
const DATABASE_TIMEOUT_MS = 2000;

/** One check: ok, or failed and why. */
export type TGatewayCheck = { status: 'ok' | 'failed'; reason?: string };

/** A gateway's readiness (GET /health/ready on its metrics listener). */
export type TGatewayReadiness = {
  status: 'ready' | 'not_ready';
  checks: { state: TGatewayCheck; database: TGatewayCheck };
  /** One line per failed check. */
  reasons: string[];
};

/** Reads the version row (the gateway's own cheapest query), failing after DATABASE_TIMEOUT_MS. */
async function pingDatabase(db: TDb): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      readVersion(db),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS / 1000} s`)),
          DATABASE_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the gateway can serve: its copy of the state loaded and fresh, and the database reachable. */
export async function checkGatewayReadiness(db: TDb, state: TGatewayState): Promise<TGatewayReadiness> {
  const health = state.health();
  const stateCheck: TGatewayCheck = health.isReady ? { status: 'ok' } : { status: 'failed', reason: health.reason };
  let database: TGatewayCheck = { status: 'ok' };
  try {
    await pingDatabase(db);
  } catch (error) {
    const text = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);
    database = { status: 'failed', reason: `not reachable: ${text}` };
  }
  const checks = { state: stateCheck, database };
  const reasons = Object.entries(checks).flatMap(([name, check]) =>
    check.status === 'failed' ? [`${name}: ${check.reason}`] : [],
  );
  return { status: reasons.length === 0 ? 'ready' : 'not_ready', checks, reasons };
}
