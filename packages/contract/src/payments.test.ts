import { describe, expect, it } from 'vitest';
import { formatUsdtUnits, parseYuanAmount, rechargeFeeFen, usdtNetworkOf } from './payments';

describe('recharge fee (spec section 9: 1% + 1 yuan, half up to the fen)', () => {
  it.each([
    [0, 100],
    [1, 100],
    [49, 100],
    [50, 101],
    [149, 101],
    [150, 102],
    [100, 101],
    [1000, 110],
    [10_000, 200],
    [10_050, 201],
    [10_049, 200],
    [5_000_000, 50_100],
  ])('%i fen -> %i fen', (amount, fee) => {
    expect(rechargeFeeFen(amount)).toBe(fee);
  });

  it('refuses what is not a non-negative integer of fen', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(() => rechargeFeeFen(bad)).toThrow(RangeError);
  });
});

describe('amount parser (canonical yuan, at most two decimals)', () => {
  it.each([
    ['100', 10_000],
    ['100.5', 10_050],
    ['100.50', 10_050],
    ['0.01', 1],
    ['0', 0],
    ['1000000', 100_000_000],
  ])('%s -> %i fen', (text, fen) => {
    expect(parseYuanAmount(text)).toBe(fen);
  });

  it.each([
    '',
    '0100',
    '+100',
    '-100',
    '1e2',
    '100.123',
    '1.',
    '.5',
    ' 100',
    '100 ',
    '0x64',
    '１００',
    '100,00',
    'Infinity',
    'NaN',
    '12345678901',
  ])('refuses %j', (text) => {
    expect(parseYuanAmount(text)).toBeNull();
  });
});

describe('USDT amounts (integers of 10^-6 USDT as exact decimals)', () => {
  it.each([
    [14_230_000, '14.23'],
    [14_000_000, '14.00'],
    [14_229_999, '14.229999'],
    [10_000, '0.01'],
    [1, '0.000001'],
    [0, '0.00'],
    ['123456789012345678901', '123456789012345.678901'],
  ])('%s units -> %s', (units, text) => {
    expect(formatUsdtUnits(units)).toBe(text);
  });

  it('names the network of the USDT methods only', () => {
    expect(usdtNetworkOf('usdt_trc20')).toBe('trc20');
    expect(usdtNetworkOf('usdt_erc20')).toBe('erc20');
    expect(usdtNetworkOf('alipay')).toBeNull();
  });
});
