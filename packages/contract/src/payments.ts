import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { FEN_PER_YUAN } from './money';
import { VERSION_STATUSES, zEffectiveAt, zFen } from './pricing';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zQueryDate } from './validators';

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
export const USDT_METHODS = { trc20: 'usdt_trc20', erc20: 'usdt_erc20' } as const satisfies Record<TUsdtNetwork, TPayMethod>;
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
export const LEDGER_REASONS = ['recharge', 'trial', 'purchase', 'renew', 'auto_renew', 'refund', 'rebate', 'supply', 'adjustment', 'reversal'] as const;
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

/** What became of a USDT transfer to our address: it paid an order, or it awaits an operator. */
export const USDT_TRANSFER_STATUSES = ['credited', 'unmatched'] as const;
/** A transfer status. */
export type TUsdtTransferStatus = (typeof USDT_TRANSFER_STATUSES)[number];

/** A final USDT transfer to our address, as the operator sees it. */
export const ZUsdtTransfer = z.object({
  id: z.number().int(),
  network: z.enum(USDT_NETWORKS),
  tx_hash: z.string(),
  log_index: z.number().int(),
  block_number: z.number().int(),
  block_time: z.string(),
  from: z.string(),
  /** Exact decimal USDT. */
  amount: z.string(),
  status: z.enum(USDT_TRANSFER_STATUSES),
  /** The order it paid (credited), if any. */
  order_id: z.string().nullable(),
  user_id: z.number().int().nullable(),
  /** Why it matched no order. */
  note: z.string().nullable(),
  /** When the watcher recorded it. */
  seen_at: z.string(),
});
/** Parsed transfer. */
export type TUsdtTransfer = z.infer<typeof ZUsdtTransfer>;

/** Filters of the unmatched transfers. */
export const ZUsdtUnmatchedQuery = ZPageQuery.extend({
  network: z.enum(USDT_NETWORKS, { error: 'invalidValue' }).optional(),
});

/** A recharge order as operators see it: whose it is. */
export const ZAdminPayOrder = ZPayOrder.extend({ user_id: z.number().int(), user_email: z.string() });
/** Parsed operator's order. */
export type TAdminPayOrder = z.infer<typeof ZAdminPayOrder>;

/** Filters of every customer's recharge orders. */
export const ZAdminPayOrderQuery = ZPayRecordQuery.extend({
  method: z.enum(PAY_METHODS, { error: 'payMethodInvalid' }).optional(),
  user_id: zId.optional(),
  order_id: z.string().trim().max(64, { error: 'tooLong' }).optional(),
  /** The customer's e-mail (exact, any case); with user_id, both must match. */
  user_email: z.string().trim().toLowerCase().max(254, { error: 'tooLong' }).optional(),
});
/** Parsed operator's order filters. */
export type TAdminPayOrderQuery = z.output<typeof ZAdminPayOrderQuery>;

/** Credits an unmatched transfer to a customer: the yuan amount the operator decided (at most two decimals). */
export const ZAssignTransferBody = z.object({
  user_id: z.number({ error: 'invalidValue' }).int({ error: 'invalidValue' }).positive({ error: 'invalidValue' }),
  amount: z
    .string({ error: 'adjustFormat' })
    .refine((v) => parseYuanAmount(v) !== null, { error: 'adjustFormat' })
    .refine(
      (v) => {
        const fen = parseYuanAmount(v);
        return fen === null || (fen > 0 && fen <= 100_000_000);
      },
      { error: 'adjustRange' },
    ),
});

/** Reverses a successful recharge (refunded outside): the reason is kept with the order. */
export const ZReverseOrderBody = z.object({
  reason: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(200, { error: 'tooLong' }),
});

/** What a reversal did: taken from the balance, left as debt, and the rebate of the order. */
export const ZReverseOrderResult = z.object({
  order: ZAdminPayOrder,
  taken_back: z.number(),
  debt: z.number(),
  rebate: z.enum(['none', 'cancelled', 'taken_back']),
});
/** Parsed reversal result. */
export type TReverseOrderResult = z.infer<typeof ZReverseOrderResult>;

/** What reconciling a pending order did: the provider's answer and the order after it. */
export const ZReconcileOrderResult = z.object({
  order: ZAdminPayOrder,
  /** What the provider says: paid, not paid yet, or closed unpaid. */
  provider_state: z.enum(['paid', 'unpaid', 'closed']),
  /** credited: settled now; settled: another path settled it first; unchanged: still pending; closed: ended as failed. */
  result: z.enum(['credited', 'settled', 'unchanged', 'closed']),
});
/** Parsed reconciliation result. */
export type TReconcileOrderResult = z.infer<typeof ZReconcileOrderResult>;

/** Operators: every recharge order, and the USDT transfers that matched no order (never dropped) with their assignment to a customer. */
export const PAY_ADMIN_ROUTES = {
  adminPayOrderList: defineRoute({
    method: 'GET',
    path: '/admin/payments/orders',
    auth: 'admin',
    summary: "Every customer's recharge orders, newest first (filters: status, method, customer, order id, time)",
    tag: 'admin',
    input: ZAdminPayOrderQuery,
    output: zPage(ZAdminPayOrder),
  }),
  adminPayReverse: defineRoute({
    method: 'POST',
    path: '/admin/payments/orders/:order_id/reverse',
    auth: 'admin',
    body: 'json',
    summary:
      'Reverse a successful recharge refunded outside: its value is debited up to the available balance, the rest becomes debt the next top-up settles first; total recharge drops by its amount; its rebate is cancelled or taken back',
    tag: 'admin',
    input: ZReverseOrderBody.extend(ZPayOrderParam.shape),
    output: ZReverseOrderResult,
  }),
  adminPayReconcile: defineRoute({
    method: 'POST',
    path: '/admin/payments/orders/:order_id/reconcile',
    auth: 'admin',
    body: 'json',
    summary:
      'Ask the provider about a pending order: a paid one is settled through the one settlement path (once, whoever comes first), a closed one ends as failed, an unpaid one stays pending',
    tag: 'admin',
    input: ZPayOrderParam,
    output: ZReconcileOrderResult,
  }),
  adminPayAssignTransfer: defineRoute({
    method: 'POST',
    path: '/admin/payments/unmatched/:id/assign',
    auth: 'admin',
    body: 'json',
    summary: 'Credit an unmatched USDT transfer to a customer (the yuan amount the operator decided), once; it counts as a recharge',
    tag: 'admin',
    input: ZAssignTransferBody.extend(zIdParam.shape),
    output: ZUsdtTransfer,
  }),
  adminPayUnmatchedList: defineRoute({
    method: 'GET',
    path: '/admin/payments/unmatched',
    auth: 'admin',
    summary: 'USDT transfers to our addresses that matched no order (another amount, or past the time window), newest first',
    tag: 'admin',
    input: ZUsdtUnmatchedQuery,
    output: zPage(ZUsdtTransfer),
  }),
} as const satisfies Record<string, TRouteDef>;

/** Most options in one recharge option set. */
export const CHARGE_OPTIONS_MAX = 20;

/** One recharge option as operators edit it, in fen. */
export const ZAdminChargeOption = z.object({
  amount_fen: zFen(1, 'optionAmountRange'),
  gift_fen: zFen(0, 'optionGiftRange'),
});

/** A version of the recharge option set. */
export const ZChargeOptionVersion = z.object({
  version: z.number().int(),
  effective_at: z.string(),
  created_at: z.string(),
  /** E-mail of the operator who made it; null for the defaults of a fresh install. */
  created_by: z.string().nullable(),
  status: z.enum(VERSION_STATUSES),
  options: z.array(z.object({ amount_fen: z.number().int(), gift_fen: z.number().int() })),
});
/** Parsed option set version. */
export type TChargeOptionVersion = z.infer<typeof ZChargeOptionVersion>;

/** A payment method as operators see it: configured on the server, switched on, offered to customers (both). */
export const ZPayMethodState = z.object({
  method: z.enum(PAY_METHODS),
  is_configured: z.boolean(),
  is_enabled: z.boolean(),
  is_offered: z.boolean(),
});
/** Parsed method state. */
export type TPayMethodState = z.infer<typeof ZPayMethodState>;

/** GET /admin/charge-options: the set in effect, the sets scheduled, the methods and the fee (fixed by the spec). */
export const ZAdminChargeOptions = z.object({
  current: ZChargeOptionVersion.nullable(),
  scheduled: z.array(ZChargeOptionVersion),
  methods: z.array(ZPayMethodState),
  fee: z.object({ percent: z.number(), fixed_fen: z.number().int() }),
  min_amount_fen: z.number().int(),
  max_amount_fen: z.number().int(),
});
/** Parsed operators' options. */
export type TAdminChargeOptions = z.infer<typeof ZAdminChargeOptions>;

/** POST /admin/charge-options: a new option set (1-20 options, distinct amounts, display order as given), in effect from effective_at (absent: now). */
export const ZChargeOptionSetInput = z
  .object({
    options: z
      .array(ZAdminChargeOption, { error: 'optionsCount' })
      .min(1, { error: 'optionsCount' })
      .max(CHARGE_OPTIONS_MAX, { error: 'optionsCount' })
      .superRefine((options, ctx) => {
        const seen = new Set<number>();
        options.forEach((o, i) => {
          if (seen.has(o.amount_fen)) ctx.addIssue({ code: 'custom', path: [i, 'amount_fen'], message: 'optionAmountDuplicate' });
          seen.add(o.amount_fen);
        });
      }),
    effective_at: zEffectiveAt,
  })
  .meta({ examples: [{ options: [{ amount_fen: 10000, gift_fen: 500 }], effective_at: '2026-12-01T00:00:00+08:00' }] });
/** Parsed option set. */
export type TChargeOptionSetInput = z.infer<typeof ZChargeOptionSetInput>;

/** Operators: the recharge option sets (versioned, with an effective time) and the payment methods switched on or off; the fee is the spec's. */
export const CHARGE_OPTION_ADMIN_ROUTES = {
  adminChargeOptions: defineRoute({
    method: 'GET',
    path: '/admin/charge-options',
    auth: 'admin',
    summary: 'The recharge option set in effect, the sets scheduled for later, every payment method (configured, switched on, offered) and the fixed fee',
    tag: 'admin',
    output: ZAdminChargeOptions,
  }),
  adminChargeOptionVersions: defineRoute({
    method: 'GET',
    path: '/admin/charge-options/versions',
    auth: 'admin',
    summary: 'Versions of the recharge option set, newest first, each scheduled, current or past',
    tag: 'admin',
    input: ZPageQuery,
    output: zPage(ZChargeOptionVersion),
  }),
  adminChargeOptionCreate: defineRoute({
    method: 'POST',
    path: '/admin/charge-options',
    auth: 'admin',
    body: 'json',
    summary:
      'A new recharge option set (amounts and gifts in fen, amounts within the top-up bounds and distinct) as a new version, in effect from effective_at (absent: now); orders record the version whose gift they got',
    tag: 'admin',
    input: ZChargeOptionSetInput,
    output: ZChargeOptionVersion,
  }),
  adminPayMethodSet: defineRoute({
    method: 'PUT',
    path: '/admin/charge-options/methods/:method',
    auth: 'admin',
    body: 'json',
    summary:
      'Switch a payment method on or off for every API instance at once: a method that is off is not offered and its new orders are refused; a method whose provider is not configured cannot be switched on',
    tag: 'admin',
    input: z.object({ method: z.enum(PAY_METHODS, { error: 'payMethodInvalid' }), is_enabled: z.boolean({ error: 'booleanRequired' }) }),
    output: ZPayMethodState,
  }),
} as const satisfies Record<string, TRouteDef>;
