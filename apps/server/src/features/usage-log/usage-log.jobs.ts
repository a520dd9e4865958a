import type { TDeps } from '../../lib/deps';
import { drain, type TJob } from '../../jobs/job-runner';
import {
  createUsageLogPartitionsAhead,
  deleteNextExpiredUsageLogRows,
  dropNextExpiredUsageLogPartition,
  endFinishedUsageLogTrims,
  trimNextShortenedUsageLog,
} from './usage-log.service';

// Steps per pass (a partition dropped, or a slice of up to 5000 rows deleted): a large backlog goes over several passes.
const STEPS_PER_PASS = 40;

/**
 * Partitions of the usage log ahead of time, in the server's job runner: today's
 * and the next 32 days' (rows arriving before theirs exists wait in the
 * default partition and move in when it is made).
 */
export function createUsageLogPartitionsJob(deps: Pick<TDeps, 'db' | 'clock'>): TJob {
  return { name: 'usage-log-partitions', runOnce: () => createUsageLogPartitionsAhead(deps) };
}

/**
 * Retention of the usage log: each day partition whose day has passed is
 * dropped whole; then, by bounded DELETEs, past rows left in the default
 * partition and the rows of accounts that shortened their retention.
 */
export function createUsageLogRetentionJob(deps: Pick<TDeps, 'db' | 'clock'>): TJob {
  return {
    name: 'usage-log-retention',
    runOnce: async (stopping) =>
      (await drain(() => dropNextExpiredUsageLogPartition(deps), STEPS_PER_PASS, stopping)) +
      (await drain(() => deleteNextExpiredUsageLogRows(deps), STEPS_PER_PASS, stopping)) +
      (await drain(() => trimNextShortenedUsageLog(deps), STEPS_PER_PASS, stopping)) +
      (await endFinishedUsageLogTrims(deps)),
  };
}
