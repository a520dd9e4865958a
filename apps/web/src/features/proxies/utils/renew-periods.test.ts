import { describe, expect, it } from 'vitest';
import { defaultRenewDays, RENEW_PERIODS } from './renew-periods';

describe('the default renewal period', () => {
  const twoYuanADay = (days: number) => days * 200;

  it('is the usual 30 days when the balance covers them, never longer', () => {
    expect(defaultRenewDays([1, 7, 30, 90], twoYuanADay, 6000)).toBe(30);
    expect(defaultRenewDays([90, 30, 7], twoYuanADay, 100_000)).toBe(30);
  });

  it('is the longest shorter period the balance covers when 30 days are too dear', () => {
    expect(defaultRenewDays([1, 7, 30, 90], twoYuanADay, 1300)).toBe(1);
    expect(defaultRenewDays([30, 1, 7, 90], twoYuanADay, 5000)).toBe(7);
  });

  it('is the shortest period when the balance covers none', () => {
    expect(defaultRenewDays([30, 7, 90], twoYuanADay, 100)).toBe(7);
  });

  it('offers whole periods within the purchase bounds, shortest first', () => {
    expect(RENEW_PERIODS[0]).toBe(1);
    expect([...RENEW_PERIODS].sort((a, b) => a - b)).toEqual(RENEW_PERIODS);
    expect(RENEW_PERIODS.every((d) => Number.isInteger(d) && d >= 1 && d <= 365)).toBe(true);
  });
});
