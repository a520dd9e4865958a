import type { TDeps } from '../../lib/deps';
import { drain, type TJob } from '../../jobs/job-runner';
import { dropNextExpiredUsageLog } from './usage-log.service';

// Slices per pass (each up to 5000 rows): a large backlog is dropped over several passes.
const SLICES_PER_PASS = 40;

/** Retention of the usage log, in the server's job runner: days older than each owner's retention are dropped. */
export function createUsageLogRetentionJob(deps: Pick<TDeps, 'db' | 'clock'>): TJob {
  return { name: 'usage-log-retention', runOnce: () => drain(() => dropNextExpiredUsageLog(deps), SLICES_PER_PASS) };
}
