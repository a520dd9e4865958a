import type { TDeps } from '../../lib/deps';
import { drain, type TJob } from '../../jobs/job-runner';
import {
  alertNextAutoRenewNotice,
  alertNextAutoRenewShortfall,
  alertNextBalance,
  alertNextExpiry,
  alertNextUsage,
  mailNextAlert,
} from './alerts.service';

const ROWS_PER_PASS = 200;

/**
 * The alert jobs, in the server's job runner: traffic thresholds, expiry
 * reminders, notices of coming auto-renewals (with their cancel links), auto-renewals the balance cannot pay, low balances, then the
 * e-mails of the alerts written.
 */
export function createAlertJobs(deps: Pick<TDeps, 'db' | 'clock' | 'mailer' | 'log' | 'config'>): TJob[] {
  return [
    { name: 'alert-usage', runOnce: (stopping) => drain(() => alertNextUsage(deps), ROWS_PER_PASS, stopping) },
    { name: 'alert-expiry', runOnce: (stopping) => drain(() => alertNextExpiry(deps), ROWS_PER_PASS, stopping) },
    {
      name: 'alert-auto-renew-notice',
      runOnce: (stopping) => drain(() => alertNextAutoRenewNotice(deps), ROWS_PER_PASS, stopping),
    },
    {
      name: 'alert-auto-renew',
      runOnce: (stopping) => drain(() => alertNextAutoRenewShortfall(deps), ROWS_PER_PASS, stopping),
    },
    { name: 'alert-balance', runOnce: (stopping) => drain(() => alertNextBalance(deps), ROWS_PER_PASS, stopping) },
    { name: 'alert-mail', runOnce: (stopping) => drain(() => mailNextAlert(deps), ROWS_PER_PASS, stopping) },
  ];
}
