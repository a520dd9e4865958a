import { PROXY_DAYS_MAX } from '@proxy/contract';

/** Periods the renew dialog offers with their cost (any whole number of days up to PROXY_DAYS_MAX can still be typed). */
export const RENEW_PERIODS: readonly number[] = [1, 7, 30, 90, 180, 365].filter((days) => days <= PROXY_DAYS_MAX);

/**
 * The period a renewal starts at: the shortest one the balance covers, or the shortest of all when
 * the balance covers none (the dialog then says the balance is short and offers a top-up).
 */
export function defaultRenewDays(periods: readonly number[], costFen: (days: number) => number, balanceFen: number): number {
  const sorted = [...periods].sort((a, b) => a - b);
  return sorted.find((days) => costFen(days) <= balanceFen) ?? sorted[0];
}
