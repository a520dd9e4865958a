import { ERRORS, errorMessage, type TLang, type TReadiness } from '@proxy/contract';
import { appliedMigrationAt, expectedMigration } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { pingDatabase } from './system.repository';

/** How long the readiness checks wait for the database before calling it unreachable. */
const DATABASE_TIMEOUT_MS = 2000;

type TCheck = TReadiness['checks']['database'];

function failed(reason: string): TCheck {
  return { status: 'failed', reason };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].slice(0, 200) || 'unknown error';
}

/** Runs `work`, failing with "no answer within …" when the database does not answer in time. */
function withinTimeout<T>(work: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS / 1000} s`)),
      DATABASE_TIMEOUT_MS,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Whether this API process can serve: the database answers, its migrations are
 * the ones this build expects (newer ones pass, as during a rolling upgrade the
 * first new instance migrates before the old ones stop), the change feed of
 * the answer cache listens, and an embedded gateway's state is loaded and fresh.
 */
export async function checkReadiness(deps: Pick<TDeps, 'db' | 'answerCache' | 'gatewayHealth'>): Promise<TReadiness> {
  let database: TCheck = { status: 'ok' };
  let migrations: TCheck = { status: 'ok' };
  try {
    await withinTimeout(pingDatabase(deps.db));
    const expected = expectedMigration();
    const applied = await withinTimeout(appliedMigrationAt(deps.db));
    if (applied === null || applied < expected.when)
      migrations = failed(`the database is behind this build: its migrations end before ${expected.tag}`);
    else if (applied > expected.when)
      migrations = { status: 'ok', reason: `the database has migrations newer than ${expected.tag}` };
  } catch (error) {
    database = failed(`not reachable: ${messageOf(error)}`);
    migrations = failed('not checked: the database is not reachable');
  }
  const cache = deps.answerCache.stats();
  const changeFeed: TCheck = !cache.isOn
    ? { status: 'off' }
    : cache.isLive
      ? { status: 'ok' }
      : failed('not listening: the connection is down (reconnecting)');
  const health = deps.gatewayHealth?.();
  const gateway: TCheck = !health
    ? { status: 'off' }
    : health.isReady
      ? { status: 'ok' }
      : failed(health.reason ?? 'not ready');
  const checks = { database, migrations, change_feed: changeFeed, gateway };
  const reasons = Object.entries(checks).flatMap(([name, check]) =>
    check.status === 'failed' ? [`${name}: ${check.reason}`] : [],
  );
  return { status: reasons.length === 0 ? 'ready' : 'not_ready', checks, reasons };
}

/** The envelope of a 503 NOT_READY answer, with the readiness in `data`. */
export function notReadyBody(readiness: TReadiness, lang: TLang): string {
  const data = { error: 'NOT_READY', ...readiness };
  return JSON.stringify({ code: ERRORS.NOT_READY.code, msg: errorMessage('NOT_READY', lang), data });
}
