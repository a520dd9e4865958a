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
    { name: 'alert-usage', runOnce: () => drain(() => alertNextUsage(deps), ROWS_PER_PASS) },
    { name: 'alert-expiry', runOnce: () => drain(() => alertNextExpiry(deps), ROWS_PER_PASS) },
    { name: 'alert-auto-renew-notice', runOnce: () => drain(() => alertNextAutoRenewNotice(deps), ROWS_PER_PASS) },
    { name: 'alert-auto-renew', runOnce: () => drain(() => alertNextAutoRenewShortfall(deps), ROWS_PER_PASS) },
    { name: 'alert-balance', runOnce: () => drain(() => alertNextBalance(deps), ROWS_PER_PASS) },
    { name: 'alert-mail', runOnce: () => drain(() => mailNextAlert(deps), ROWS_PER_PASS) },
  ];
}
