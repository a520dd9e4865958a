import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { FEN_PER_YUAN } from './money';
import { defineRoute, type TRouteDef } from './route-def';
import { zQueryDate } from './validators';

/**
 * Money in (spec sections 3, 4, 7 Payments, 9): recharge options, charging
 * through a payment provider, the customer's bills (recharge orders) and the
 * statement of every movement of the balance.
 */

/** Payment methods (providers). The sandbox is for a fresh install and tests; USDT is paid on TRON (TRC20) or Ethereum (ERC20). */
export const PAY_METHODS = ['alipay', 'wechat', 'sandbox', 'usdt_trc20', 'usdt_erc20'] as const;
/** A payment method. */
export type TPayMethod = (typeof PAY_METHODS)[number];

/** Networks USDT is paid on: TRON (TRC20) and Ethereum (ERC20). */
export const USDT_NETWORKS = ['trc20', 'erc20'] as const;
/** A USDT network. */
export type TUsdtNetwork = (typeof USDT_NETWORKS)[number];
/** The payment method of each USDT network. */
export const USDT_METHODS = { trc20: 'usdt_trc20', erc20: 'usdt_erc20' } as const satisfies Record<
  TUsdtNetwork,
  TPayMethod
>;
/** USDT has 6 decimals on both networks: amounts are kept as integers of 10^-6 USDT ("units"). */
export const USDT_DECIMALS = 6;

/** The USDT network of a payment method, or null for the others. */
export function usdtNetworkOf(method: TPayMethod): TUsdtNetwork | null {
  return USDT_NETWORKS.find((n) => USDT_METHODS[n] === method) ?? null;
}

/**
 * Integer units of 10^-6 USDT as an exact decimal with at least two decimals:
 * 14230000 -> "14.23", 14000000 -> "14.00", 14229999 -> "14.229999".
 */
export function formatUsdtUnits(units: bigint | number | string): string {
  const value = BigInt(units);
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(USDT_DECIMALS + 1, '0');
  const whole = digits.slice(0, -USDT_DECIMALS);
  const fraction = digits.slice(-USDT_DECIMALS).replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}

/** How the customer pays: a page to open (redirect) or a QR code to scan. */
export const PAY_MODES = ['redirect', 'qr'] as const;
/** A pay mode. */
export type TPayMode = (typeof PAY_MODES)[number];

/** States of a payment (spec section 4): pending, then exactly one of the others. */
export const PAYMENT_STATUSES = ['pending', 'success', 'failure', 'cancelled', 'timeout'] as const;
/** A payment state. */
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Why the balance moved: the reasons the ledger records, as the statement shows and filters them. */
export const LEDGER_REASONS = [
  'recharge',
  'trial',
  'purchase',
  'renew',
  'auto_renew',
  'refund',
  'rebate',
  'supply',
  'adjustment',
  'reversal',
] as const;
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
  if (!Number.isSafeInteger(amountFen) || amountFen < 0)
    throw new RangeError(`amount must be a non-negative integer of fen, got ${amountFen}`);
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
  mode: z.enum(PAY_MODES, { error: 'payModeInvalid' }).optional(),
});
/** Parsed charge input. */
export type TChargeInput = z.infer<typeof ZChargeInput>;

/**
 * How to pay a USDT order: send exactly `amount` USDT on `network` to
 * `address` before the order's `expires_at`. The amount is unique among the
 * network's open orders, so the transfer itself says which order it pays.
 */
export const ZCryptoPayment = z.object({
  network: z.enum(USDT_NETWORKS),
  token: z.literal('USDT'),
  /** Exact decimal (e.g. "14.23"): the yuan price at the frozen rate, plus an offset of 0.01-0.99 that makes it unique. */
  amount: z.string().meta({ examples: ['14.23'] }),
  /** Our receiving address on the network. */
  address: z.string().meta({ examples: ['TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'] }),
  /** Yuan per USDT, frozen when the order was created. */
  rate: z.string().meta({ examples: ['7.20'] }),
});
/** Parsed USDT payment details. */
export type TCryptoPayment = z.infer<typeof ZCryptoPayment>;

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
  /** USDT orders: what to send where (null for the other methods). */
  crypto: ZCryptoPayment.nullable(),
  /** Reversed by an operator (refunded outside): the balance gave back what it had received. */
  reversed_at: z.string().nullable(),
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
export const ZPayOrderParam = z.object({
  order_id: z.string().trim().min(1, { error: 'required' }).max(64, { error: 'tooLong' }),
});

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

/** What asking the provider about an order ("I have paid") found. */
export const PAY_CHECK_RESULTS = ['credited', 'already_paid', 'not_found', 'referred'] as const;

/**
 * The answer of "I have paid": the order as it is now, and what the check found:
 * credited (a payment was found and credited now), already_paid (the order was
 * paid before), not_found (the provider knows no payment yet), referred (a
 * payment was found that cannot be credited automatically: a work order for the
 * operator carries the evidence, `work_order_id`).
 */
export const ZPayCheckResult = z.object({
  order: ZPayOrder,
  result: z.enum(PAY_CHECK_RESULTS),
  work_order_id: z.number().int().nullable(),
});
/** Parsed answer of "I have paid". */
export type TPayCheckResult = z.infer<typeof ZPayCheckResult>;

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
      'Start a recharge: method is alipay, wechat, sandbox, usdt_trc20 or usdt_erc20; amount is yuan with at most two decimals (100, 100.5). The customer pays amount + fee (1% + 1 yuan); the balance receives amount + the gift of the option with that amount. A USDT order answers `crypto`: the exact USDT amount (the price at the frozen rate plus a unique offset), the network and our address, to pay before `expires_at`',
    tag: 'pay',
    input: ZChargeInput,
    output: ZChargeResult,
  }),
  payRecordList: defineRoute({
    method: 'GET',
    path: '/pay/record/list',
    auth: 'user',
    isCachedPerUser: true,
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
  payCheck: defineRoute({
    method: 'POST',
    path: '/pay/check/:order_id',
    auth: 'user',
    summary:
      '"I have paid": asks the provider about a pending or expired recharge order (Alipay and WeChat Pay: their order query; USDT: the chain, for a transfer of the exact amount to our address) and credits a payment found, once, as a notification would. A payment that cannot be credited automatically opens a work order for the operator. At most 5 checks per order and 20 per account in 10 minutes',
    tag: 'pay',
    input: ZPayOrderParam,
    output: ZPayCheckResult,
  }),
  payLedgerList: defineRoute({
    method: 'GET',
    path: '/pay/ledger/list',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Statement: every movement of the balance with the balance after it, newest first',
    tag: 'pay',
    input: ZLedgerQuery,
    output: zPage(ZLedgerLine),
  }),
} as const satisfies Record<string, TRouteDef>;
