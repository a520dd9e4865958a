import type { TDeps } from '../../lib/deps';
import { createJobRunner, type TJob, type TJobRunner } from '../../jobs/job-runner';
import { runInventoryProbe } from './inventory-probe.service';

/** The inventory probe as a job: one pass through every active upstream exit. */
export function createInventoryProbeJob(deps: Pick<TDeps, 'db' | 'config' | 'clock'>): TJob {
  return { name: 'inventory-probe', runOnce: () => runInventoryProbe(deps) };
}

/** Runs the probe every INVENTORY_PROBE_INTERVAL_S (the caller starts it only when that is above 0). */
export function createInventoryProbeRunner(
  deps: Pick<TDeps, 'db' | 'config' | 'clock' | 'log'> & Partial<Pick<TDeps, 'metrics'>>,
): TJobRunner {
  return createJobRunner({
    jobs: [createInventoryProbeJob(deps)],
    intervalMs: Math.max(1, deps.config.INVENTORY_PROBE_INTERVAL_S) * 1000,
    log: deps.log,
    observer: deps.metrics?.jobs,
  });
}
