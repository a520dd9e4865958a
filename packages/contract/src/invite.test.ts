import { describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RULES, ZRebateConfigInput, rebateFenOf } from './invite';

describe('rebate of a recharge', () => {
  const rules = DEFAULT_REBATE_RULES;

  it('earns nothing below the minimum charge and the rate from it on', () => {
    expect(rebateFenOf(999, rules)).toBe(0);
    expect(rebateFenOf(0, rules)).toBe(0);
    expect(rebateFenOf(1000, rules)).toBe(50);
    expect(rebateFenOf(10_000, rules)).toBe(500);
  });

  it('floors to the fen', () => {
    expect(rebateFenOf(3333, rules)).toBe(166);
    expect(rebateFenOf(1019, rules)).toBe(50);
    expect(rebateFenOf(1020, rules)).toBe(51);
    expect(rebateFenOf(10_001, { rateBp: 755, minChargeFen: 0, maxRebateFen: 1_000_000 })).toBe(755);
  });

  it('is capped at the maximum per recharge, exactly at the edge', () => {
    expect(rebateFenOf(200_000, rules)).toBe(10_000);
    expect(rebateFenOf(199_999, rules)).toBe(9999);
    expect(rebateFenOf(5_000_000, rules)).toBe(10_000);
  });

  it('earns nothing at a zero rate, and refuses amounts that are not whole fen', () => {
    expect(rebateFenOf(100_000, { rateBp: 0, minChargeFen: 0, maxRebateFen: 100 })).toBe(0);
    expect(() => rebateFenOf(10.5, rules)).toThrow(RangeError);
    expect(() => rebateFenOf(-1, rules)).toThrow(RangeError);
  });

  it('takes rules with a rate of 0-50 percent and amounts with at most two decimals', () => {
    expect(ZRebateConfigInput.safeParse({ rate: 50, min_charge: 0, max_rebate: 0.01 }).success).toBe(true);
    expect(ZRebateConfigInput.safeParse({ rate: 12.34, min_charge: 10.5, max_rebate: 100.25 }).success).toBe(true);
    const refused = (input: object) =>
      ZRebateConfigInput.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    expect(refused({ rate: 50.01, min_charge: 10, max_rebate: 100 })).toEqual(['rate:rebateRateRange']);
    expect(refused({ rate: 0.001, min_charge: 10, max_rebate: 100 })).toEqual(['rate:twoDecimals']);
    expect(refused({ rate: 5, min_charge: -0.01, max_rebate: 100 })).toEqual(['min_charge:rebateAmountRange']);
    expect(refused({ rate: 5, min_charge: 10, max_rebate: 0 })).toEqual(['max_rebate:rebateAmountRange']);
  });
});
