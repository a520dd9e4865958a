import type { TDeps } from '../../lib/deps';
import { drain, type TJob } from '../../jobs/job-runner';
import { deleteNextLapsedExitClaims, deleteNextOldStickySessions } from './usage-sessions.service';

// Slices per pass (up to 5000 rows each): a large backlog goes over several passes.
const STEPS_PER_PASS = 40;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Retention of the session tables, once an hour (per API process, by the injected clock): sticky sessions whose
 * window started over 8 days ago (the report shows 7), and exit claims that have lapsed (a live session's claim is
 * renewed by its gateway; a lapsed one only takes room).
 */
export function createSessionRetentionJob(deps: Pick<TDeps, 'db' | 'clock'>): TJob {
  let lastPassAt = Number.NEGATIVE_INFINITY;
  return {
    name: 'session-retention',
    async runOnce(stopping) {
      const now = deps.clock.now().getTime();
      if (now - lastPassAt < HOUR_MS) return 0;
      lastPassAt = now;
      return (
        (await drain(() => deleteNextOldStickySessions(deps), STEPS_PER_PASS, stopping)) +
        (await drain(() => deleteNextLapsedExitClaims(deps), STEPS_PER_PASS, stopping))
      );
    },
  };
}
