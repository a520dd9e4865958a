import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { FEN_PER_YUAN } from './money';
import { zQueryDate } from './proxies';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * Money in (spec sections 3, 4, 7 Payments, 9): recharge options, charging
 * through a payment provider, the customer's bills (recharge orders) and the
 * statement of every movement of the balance.
 */

/** Payment methods (providers). The sandbox is for a fresh install and tests. */
export const PAY_METHODS = ['alipay', 'wechat', 'sandbox'] as const;
/** A payment method. */
export type TPayMethod = (typeof PAY_METHODS)[number];

/** How the customer pays: a page to open (redirect) or a QR code to scan. */
export const PAY_MODES = ['redirect', 'qr'] as const;
/** A pay mode. */
export type TPayMode = (typeof PAY_MODES)[number];

/** States of a payment (spec section 4): pending, then exactly one of the others. */
export const PAYMENT_STATUSES = ['pending', 'success', 'failure', 'cancelled', 'timeout'] as const;
/** A payment state. */
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Why the balance moved: the reasons the ledger records, as the statement shows and filters them. */
export const LEDGER_REASONS = ['recharge', 'trial', 'purchase', 'renew', 'auto_renew', 'refund', 'rebate', 'supply', 'adjustment'] as const;
/** A ledger reason. */
export type TLedgerReason = (typeof LEDGER_REASONS)[number];

/** Recharge fee (spec section 9): 1% of the amount plus 1 yuan. */
export const RECHARGE_FEE_PERCENT = 1;
export const RECHARGE_FEE_FIXED_FEN = 100;

/**
 * The fee of a recharge of `amountFen`: 1% of it, rounded half up to the fen,
 * plus 1 yuan. The one function the console and the server use.
 */
export function rechargeFeeFen(amountFen: number): number {
  if (!Number.isSafeInteger(amountFen) || amountFen < 0) throw new RangeError(`amount must be a non-negative integer of fen, got ${amountFen}`);
  return Math.floor((amountFen * RECHARGE_FEE_PERCENT + 50) / 100) + RECHARGE_FEE_FIXED_FEN;
}

// Canonical yuan: digits without leading zeros, at most two decimals; no sign, exponent or spaces.
const CANONICAL_YUAN = /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/;

/** A yuan amount as the customer writes it ("100", "100.5", "100.50") in fen, or null when it is not canonical. */
export function parseYuanAmount(text: string): number | null {
  if (!CANONICAL_YUAN.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * FEN_PER_YUAN + Number(frac.padEnd(2, '0'));
}

/** A recharge option: an amount, and the gift the balance receives on top of it. */
export const ZChargeOption = z.object({
  id: z.number().int(),
  amount: z.number().meta({ examples: [100] }),
  gift: z.number().meta({ examples: [0] }),
});
/** Parsed recharge option. */
export type TChargeOption = z.infer<typeof ZChargeOption>;

/** GET /pay/option/list: options, the methods that are on, the fee rule and the custom amount's bounds. */
export const ZChargeOptions = z.object({
  record: z.array(ZChargeOption),
  methods: z.array(z.object({ method: z.enum(PAY_METHODS), modes: z.array(z.enum(PAY_MODES)) })),
  fee: z.object({ percent: z.number(), fixed: z.number() }),
  min_amount: z.number(),
  max_amount: z.number(),
  /** The sandbox provider is on: no real money moves. */
  sandbox: z.boolean(),
});
/** Parsed options answer. */
export type TChargeOptions = z.infer<typeof ZChargeOptions>;

/** POST /pay/charge/{method}/{amount}: path parameters, and the optional mode (Alipay: redirect or QR). */
export const ZChargeInput = z.object({
  method: z.enum(PAY_METHODS, { error: 'payMethodInvalid' }),
  /** Yuan with at most two decimals: 100, 100.5, 100.50. */
  amount: z.string().refine((v) => parseYuanAmount(v) !== null, { error: 'amountFormat' }),
  mode: z.enum(PAY_MODES, { error: 'invalidValue' }).optional(),
});
/** Parsed charge input. */
export type TChargeInput = z.infer<typeof ZChargeInput>;

/** A recharge order (spec section 3, bill). Amounts in yuan: the customer pays `price` (amount + fee); the balance receives `value` (amount + gift). */
export const ZPayOrder = z.object({
  order_id: z.string().meta({ examples: ['R20261122093015AB12CD'] }),
  method: z.enum(PAY_METHODS),
  status: z.enum(PAYMENT_STATUSES),
  /** Spec "completed or not". */
  is_completed: z.boolean(),
  description: z.string(),
  /** Day of the order (YYYY-MM-DD, UTC+8). */
  date: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  expires_at: z.string(),
  amount: z.number(),
  gift: z.number(),
  fee: z.number(),
  price: z.number(),
  value: z.number(),
  is_sandbox: z.boolean(),
  /** Paid after the order had timed out: credited all the same. */
  is_paid_late: z.boolean(),
});
/** Parsed order. */
export type TPayOrder = z.infer<typeof ZPayOrder>;

/** The charge answer: the order and how to pay it. */
export const ZChargeResult = ZPayOrder.extend({
  mode: z.enum(PAY_MODES),
  /** Page to open (redirect mode). */
  pay_url: z.string().nullable(),
  /** Text of the QR code to show (QR mode). */
  qr_code: z.string().nullable(),
});
/** Parsed charge answer. */
export type TChargeResult = z.infer<typeof ZChargeResult>;

/** Filters of the bills. */
export const ZPayRecordQuery = ZPageQuery.extend({
  status: z.enum(PAYMENT_STATUSES, { error: 'invalidValue' }).optional(),
  /** From this day or time (ISO 8601), inclusive. */
  from: zQueryDate.optional(),
  /** Before this day or time (ISO 8601). */
  to: zQueryDate.optional(),
});
/** Parsed bill filters. */
export type TPayRecordQuery = z.output<typeof ZPayRecordQuery>;

/** One order, by id. */
export const ZPayOrderParam = z.object({ order_id: z.string().trim().min(1, { error: 'required' }).max(64, { error: 'tooLong' }) });

/** One movement of the balance (the statement). Amounts signed, in yuan. */
export const ZLedgerLine = z.object({
  id: z.number().int(),
  reason: z.enum(LEDGER_REASONS),
  /** Change of the available balance. */
  amount: z.number(),
  /** Change of the frozen balance. */
  frozen_amount: z.number(),
  balance_after: z.number(),
  frozen_after: z.number(),
  /** What it is about (an order id, proxies...). */
  reference: z.string().nullable(),
  created_at: z.string(),
});
/** Parsed statement line. */
export type TLedgerLine = z.infer<typeof ZLedgerLine>;

/** Filters of the statement. */
export const ZLedgerQuery = ZPageQuery.extend({
  reason: z.enum(LEDGER_REASONS, { error: 'invalidValue' }).optional(),
  from: zQueryDate.optional(),
  to: zQueryDate.optional(),
});
/** Parsed statement filters. */
export type TLedgerQuery = z.output<typeof ZLedgerQuery>;

/** Top-up, bills and the statement. */
export const PAY_ROUTES = {
  payOptionList: defineRoute({
    method: 'GET',
    path: '/pay/option/list',
    auth: 'user',
    summary: 'Recharge options, payment methods that are on, the fee rule and the custom amount bounds',
    tag: 'pay',
    output: ZChargeOptions,
  }),
  payCharge: defineRoute({
    method: 'POST',
    path: '/pay/charge/:method/:amount',
    auth: 'user',
    summary:
      'Start a recharge: method is alipay, wechat or sandbox; amount is yuan with at most two decimals (100, 100.5). The customer pays amount + fee (1% + 1 yuan); the balance receives amount + the gift of the option with that amount',
    tag: 'pay',
    input: ZChargeInput,
    output: ZChargeResult,
  }),
  payRecordList: defineRoute({
    method: 'GET',
    path: '/pay/record/list',
    auth: 'user',
    summary: 'Recharge orders (bills), newest first',
    tag: 'pay',
    input: ZPayRecordQuery,
    output: zPage(ZPayOrder),
  }),
  payRecordExport: defineRoute({
    method: 'GET',
    path: '/pay/record/export',
    auth: 'user',
    summary: 'Bills as CSV (same filters as the list)',
    tag: 'pay',
    input: ZPayRecordQuery.omit({ page: true, page_size: true }),
    isBlob: true,
  }),
  payOrder: defineRoute({
    method: 'GET',
    path: '/pay/order/:order_id',
    auth: 'user',
    summary: "One recharge order (its live status while it is pending); another user's order is not found",
    tag: 'pay',
    input: ZPayOrderParam,
    output: ZPayOrder,
  }),
  payCancel: defineRoute({
    method: 'POST',
    path: '/pay/cancel/:order_id',
    auth: 'user',
    summary: 'Cancel a pending recharge order',
    tag: 'pay',
    input: ZPayOrderParam,
    output: ZPayOrder,
  }),
  payLedgerList: defineRoute({
    method: 'GET',
    path: '/pay/ledger/list',
    auth: 'user',
    summary: 'Statement: every movement of the balance with the balance after it, newest first',
    tag: 'pay',
    input: ZLedgerQuery,
    output: zPage(ZLedgerLine),
  }),
} as const satisfies Record<string, TRouteDef>;
