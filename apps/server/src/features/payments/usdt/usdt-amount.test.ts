import { describe, expect, it } from 'vitest';
import { USDT_OFFSET_COUNT, parseUsdtRate, usdtBaseUnits, usdtCandidateUnits } from './usdt-amount';

describe('USDT rate (yuan per USDT, at most 6 decimals)', () => {
  it.each([
    ['7.2', 7_200_000n],
    ['7.20', 7_200_000n],
    ['6.987654', 6_987_654n],
    ['7', 7_000_000n],
    ['0.000001', 1n],
  ])('%s -> %s micro-yuan', (text, micro) => {
    expect(parseUsdtRate(text)).toBe(micro);
  });

  it.each(['', '0', '0.0', '-7.2', '7.2000001', '7,2', '1e1', ' 7.2', '.5', '7.', 'abc', '1234567'])(
    'refuses %j',
    (text) => {
      expect(parseUsdtRate(text)).toBeNull();
    },
  );
});

describe("an order's USDT base amount (the price at the rate, rounded up to 0.01 USDT)", () => {
  it.each([
    [10_200, '7.20', 14_170_000n], // 14.1666... -> 14.17
    [7_200, '7.20', 10_000_000n], // exactly 10
    [7_201, '7.20', 10_010_000n], // a fen more rounds up
    [1, '7.20', 10_000n], // 0.0013... -> 0.01
    [5_005_000_000, '6.5', 7_700_000_000_000n], // 50,050,000 yuan
  ])('%i fen at %s -> %s units', (priceFen, rate, units) => {
    expect(usdtBaseUnits(priceFen, parseUsdtRate(rate)!)).toBe(units);
  });

  it('refuses a price that is not a positive integer of fen', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => usdtBaseUnits(bad, 7_200_000n)).toThrow(RangeError);
  });

  it('offers the 999 amounts base + 0.001 .. base + 0.999, each once, the 99 whole hundredths first', () => {
    const candidates = usdtCandidateUnits(14_170_000n);
    expect(candidates).toHaveLength(USDT_OFFSET_COUNT);
    const sorted = (list: bigint[]) => [...list].sort((a, b) => (a < b ? -1 : 1));
    expect(sorted(candidates.slice(0, 99))).toEqual(
      Array.from({ length: 99 }, (_, i) => 14_170_000n + BigInt(i + 1) * 10_000n),
    );
    expect(sorted(candidates)).toEqual(Array.from({ length: 999 }, (_, i) => 14_170_000n + BigInt(i + 1) * 1_000n));
  });
});
