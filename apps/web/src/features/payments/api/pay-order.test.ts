import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '@proxy/contract';
import { makeCharge, makeOrder } from '../test/payments-fixtures';
import { ORDER_POLL_MS, orderOfCharge, orderPollInterval } from './pay-order';

describe('orderPollInterval', () => {
  it('polls a pending order and stops once it has ended', () => {
    expect(orderPollInterval(makeOrder({ status: 'pending' }))).toBe(ORDER_POLL_MS);
    for (const status of PAYMENT_STATUSES.filter((s) => s !== 'pending'))
      expect(orderPollInterval(makeOrder({ status })), status).toBe(false);
    expect(orderPollInterval(undefined)).toBe(false);
  });
});

describe('orderOfCharge', () => {
  it('keeps the order of a charge answer without how to pay it', () => {
    expect(orderOfCharge(makeCharge({ mode: 'qr', qr_code: 'x', pay_url: null }))).toEqual(makeOrder());
  });
});
