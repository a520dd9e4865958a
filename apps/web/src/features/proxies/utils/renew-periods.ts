import { PROXY_DAYS_MAX } from '@proxy/contract';

/** Periods the renew dialog offers with their cost (any whole number of days up to PROXY_DAYS_MAX can still be typed). */
export const RENEW_PERIODS: readonly number[] = [1, 7, 30, 90, 180, 365].filter((days) => days <= PROXY_DAYS_MAX);

/** The usual renewal: 30 days, when the balance covers it. */
export const RENEW_DAYS_USUAL = 30;

/**
 * The period a renewal starts at: the longest offered period up to the usual 30 days that the
 * balance covers (30 days when it can pay for them, a shorter one rather than a refusal when it
 * cannot), or the shortest of all when the balance covers none (the dialog then says the balance
 * is short and offers a top-up).
 */
export function defaultRenewDays(
  periods: readonly number[],
  costFen: (days: number) => number,
  balanceFen: number,
): number {
  const sorted = [...periods].sort((a, b) => a - b);
  const covered = sorted.filter((days) => days <= RENEW_DAYS_USUAL && costFen(days) <= balanceFen);
  return covered.at(-1) ?? sorted[0];
}
