import type { TChargeOptions, TChargeResult, TLedgerLine, TPayOrder } from '@proxy/contract';

/** Options of 10, 100 (gift 5) and 500 (gift 30) yuan; Alipay (page or QR) and the sandbox; custom amounts from 10 to 50000 yuan. */
export const OPTIONS: TChargeOptions = {
  record: [
    { id: 1, amount: 10, gift: 0 },
    { id: 2, amount: 100, gift: 5 },
    { id: 3, amount: 500, gift: 30 },
  ],
  methods: [
    { method: 'alipay', modes: ['redirect', 'qr'] },
    { method: 'sandbox', modes: ['redirect'] },
  ],
  fee: { percent: 1, fixed: 1 },
  min_amount: 10,
  max_amount: 50000,
  sandbox: true,
};

/** A recharge order (100 yuan by the sandbox, pending unless told), with overrides. */
export function makeOrder(overrides: Partial<TPayOrder> = {}): TPayOrder {
  return {
    order_id: 'R1001',
    method: 'sandbox',
    status: 'pending',
    is_completed: false,
    description: 'Top up ¥100.00',
    date: '2026-03-01',
    created_at: '2026-03-01T02:00:00.000Z',
    paid_at: null,
    expires_at: '2026-03-01T02:30:00.000Z',
    amount: 100,
    gift: 5,
    fee: 2,
    price: 102,
    value: 105,
    is_sandbox: true,
    is_paid_late: false,
    crypto: null,
    reversed_at: null,
    ...overrides,
  };
}

/** A charge answer: the order and how to pay it (the sandbox's page unless told). */
export function makeCharge(overrides: Partial<TChargeResult> = {}): TChargeResult {
  return {
    ...makeOrder(),
    mode: 'redirect',
    pay_url: 'http://127.0.0.1/pay/sandbox/R1001',
    qr_code: null,
    ...overrides,
  };
}

/** A line of the statement, with overrides. */
export function makeLedgerLine(overrides: Partial<TLedgerLine> & { id: number }): TLedgerLine {
  return {
    reason: 'recharge',
    amount: 105,
    frozen_amount: 0,
    balance_after: 120,
    frozen_after: 0,
    reference: 'R1001',
    created_at: '2026-03-01T02:05:00.000Z',
    ...overrides,
  };
}
