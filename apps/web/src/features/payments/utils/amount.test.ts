import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../test/payments-fixtures';
import { amountText, checkCustomAmount, quoteCharge } from './amount';

describe('amountText', () => {
  it('writes the canonical amount the charge call takes', () => {
    expect(amountText(10000)).toBe('100');
    expect(amountText(10050)).toBe('100.50');
    expect(amountText(10001)).toBe('100.01');
    expect(amountText(1)).toBe('0.01');
  });
});

describe('quoteCharge', () => {
  it('adds the 1% + 1 yuan fee to what is paid and the gift of an equal option to what is received', () => {
    expect(quoteCharge(10000, OPTIONS.record)).toEqual({
      amountFen: 10000,
      giftFen: 500,
      feeFen: 200,
      priceFen: 10200,
      valueFen: 10500,
    });
    expect(quoteCharge(10050, OPTIONS.record)).toEqual({
      amountFen: 10050,
      giftFen: 0,
      feeFen: 201,
      priceFen: 10251,
      valueFen: 10050,
    });
    // 1% of 10.50 is 0.105: half up to 0.11.
    expect(quoteCharge(1050, OPTIONS.record).feeFen).toBe(111);
  });
});

describe('checkCustomAmount', () => {
  const bounds = { min_amount: 10, max_amount: 50000 };

  it('accepts canonical amounts within the bounds (surrounding spaces aside)', () => {
    expect(checkCustomAmount('100', bounds, 'en')).toEqual({ fen: 10000 });
    expect(checkCustomAmount(' 100.5 ', bounds, 'en')).toEqual({ fen: 10050 });
    expect(checkCustomAmount('10', bounds, 'en')).toEqual({ fen: 1000 });
    expect(checkCustomAmount('50000.00', bounds, 'en')).toEqual({ fen: 5000000 });
  });

  it('refuses other forms and amounts out of bounds with the catalogue messages', () => {
    for (const text of ['', 'abc', '1e3', '-1', '+1', '01', '1.234', '1.', '.5']) {
      expect(checkCustomAmount(text, bounds, 'en').error, text).toBe(
        'The amount must be a number with at most two decimals, such as 100 or 100.50',
      );
    }
    expect(checkCustomAmount('9.99', bounds, 'en').error).toBe('The amount must be between 10 and 50000 yuan');
    expect(checkCustomAmount('50000.01', bounds, 'zh').error).toBe('充值金额须在 10 至 50000 元之间');
    expect(checkCustomAmount('1', { min_amount: 0.5, max_amount: 0.99 }, 'en').error).toBe(
      'The amount must be between 0.50 and 0.99 yuan',
    );
  });
});
