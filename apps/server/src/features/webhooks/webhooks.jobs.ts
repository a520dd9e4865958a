import type { TDeps } from '../../lib/deps';
import { createJobRunner, type TJobRunner } from '../../jobs/job-runner';
import { deliverDueWebhooks, senderOf } from './webhooks.service';
import type { TWebhookSender } from './webhooks.sender';

/**
 * The webhook delivery queue in a job runner of its own (a slow receiver never
 * delays the lifecycle jobs). stop() cuts the attempts in flight short without
 * recording them, as a killed server would: their leases run out and the next
 * pass, here or on another instance, delivers them again with the same event id.
 */
export function createWebhookRunner(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log'> & Partial<Pick<TDeps, 'metrics'>>,
  sender: TWebhookSender = senderOf(deps.config),
): TJobRunner {
  const stopping = new AbortController();
  const runner = createJobRunner({
    jobs: [{ name: 'webhook-delivery', runOnce: () => deliverDueWebhooks(deps, sender, stopping.signal) }],
    intervalMs: deps.config.WEBHOOK_INTERVAL_MS,
    log: deps.log,
    observer: deps.metrics?.jobs,
  });
  return {
    start: runner.start,
    runAllOnce: runner.runAllOnce,
    async stop() {
      stopping.abort();
      await runner.stop();
    },
  };
}
