import type { TDeps } from '../lib/deps';
import { autoRenewNextToken, exhaustNextToken, expireNextToken } from '../features/proxies/proxies-lifecycle.service';
import { reconcileStaleOrders } from '../features/payments/payments-settle.service';
import { payNextRebate } from '../features/invite/invite.service';
import { usdtProviderOf, type TUsdtProvider } from '../features/payments/providers/usdt';
import { watchUsdtTransfers } from '../features/payments/usdt-watcher.service';
import { refundNextOverdueSupply } from '../features/supply/supply.service';
import { createAlertJobs } from '../features/alerts/alerts.jobs';
import { createUsageLogPartitionsJob, createUsageLogRetentionJob } from '../features/usage-log/usage-log.jobs';
import { createSessionRetentionJob } from '../features/usage/usage-sessions.jobs';
import { createJobRunner, drain, type TJob, type TJobRunner } from './job-runner';

// Rows per pass: enough to keep up, small enough that a pass stays short.
const ROWS_PER_PASS = 200;

/** Auto-renew: IP tokens with auto-renew on, within an hour of expiry. */
export function createAutoRenewJob(deps: Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>): TJob {
  return { name: 'auto-renew', runOnce: (stopping) => drain(() => autoRenewNextToken(deps), ROWS_PER_PASS, stopping) };
}

/** Expiry: live tokens past expires_at become expired; static IPs release their upstream node. */
export function createExpiryJob(deps: Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>): TJob {
  return { name: 'expiry', runOnce: (stopping) => drain(() => expireNextToken(deps), ROWS_PER_PASS, stopping) };
}

/** Exhaustion: traffic tokens whose usage reached the allowance become invalid. */
export function createExhaustionJob(deps: Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>): TJob {
  return { name: 'exhaustion', runOnce: (stopping) => drain(() => exhaustNextToken(deps), ROWS_PER_PASS, stopping) };
}

/** Recharge orders past their time: asked about at their provider, then settled or timed out. */
export function createPaymentReconciliationJob(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log' | 'mailer' | 'payProviders'>,
): TJob {
  return { name: 'payment-reconciliation', runOnce: () => reconcileStaleOrders(deps) };
}

/** A USDT network's watcher: final transfers to our address settle their orders; it polls the chain every USDT_POLL_INTERVAL_S. */
export function createUsdtWatcherJob(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log' | 'mailer' | 'payProviders'>,
  provider: TUsdtProvider,
): TJob {
  let lastPassAt = Number.NEGATIVE_INFINITY;
  return {
    name: `usdt-${provider.usdt.network}-watcher`,
    async runOnce() {
      const now = deps.clock.now().getTime();
      if (now - lastPassAt < provider.usdt.pollIntervalS * 1000) return 0;
      lastPassAt = now;
      return watchUsdtTransfers(deps, provider);
    },
  };
}

/** The watchers of the USDT networks that are on. */
export function createUsdtWatcherJobs(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log' | 'mailer' | 'payProviders'>,
): TJob[] {
  return [...deps.payProviders.values()].flatMap((p) => {
    const usdt = usdtProviderOf(p);
    return usdt ? [createUsdtWatcherJob(deps, usdt)] : [];
  });
}

/** Rebate payout: due pending rebates of invitees' recharges are paid to their inviters through the ledger. */
export function createRebatePayoutJob(deps: Pick<TDeps, 'db' | 'clock'>): TJob {
  return { name: 'rebate-payout', runOnce: (stopping) => drain(() => payNextRebate(deps), ROWS_PER_PASS, stopping) };
}

/** Supply requests open past their wait days: the fee is released and the request refunded. */
export function createSupplyRefundJob(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log' | 'gatewayApplied' | 'mailer'>,
): TJob {
  return {
    name: 'supply-refund',
    runOnce: (stopping) => drain(() => refundNextOverdueSupply(deps), ROWS_PER_PASS, stopping),
  };
}

/** The server's lifecycle jobs (auto-renew runs before expiry so a renewable token never lapses; USDT watchers settle before stale orders time out). */
export function createServerJobRunner(
  deps: Pick<TDeps, 'db' | 'clock' | 'config' | 'log' | 'gatewayApplied' | 'mailer' | 'payProviders'> &
    Partial<Pick<TDeps, 'metrics'>>,
): TJobRunner {
  return createJobRunner({
    jobs: [
      createAutoRenewJob(deps),
      createExpiryJob(deps),
      createExhaustionJob(deps),
      ...createUsdtWatcherJobs(deps),
      createPaymentReconciliationJob(deps),
      createRebatePayoutJob(deps),
      createSupplyRefundJob(deps),
      ...createAlertJobs(deps),
      createUsageLogPartitionsJob(deps),
      createUsageLogRetentionJob(deps),
      createSessionRetentionJob(deps),
    ],
    intervalMs: deps.config.JOBS_INTERVAL_MS,
    log: deps.log,
    observer: deps.metrics?.jobs,
  });
}
