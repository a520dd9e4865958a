import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { PAY_METHODS, USDT_NETWORKS, ZPayOrder, ZPayOrderParam, ZPayRecordQuery, parseYuanAmount } from './payments';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam } from './validators';

/**
 * Operators' side of money in (spec section 7 Payments, ARCHITECTURE.md Money):
 * every customer's recharge orders, their reversal and reconciliation, and the
 * USDT transfers that matched no order.
 */

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
    summary:
      'Credit an unmatched USDT transfer to a customer (the yuan amount the operator decided), once; it counts as a recharge',
    tag: 'admin',
    input: ZAssignTransferBody.extend(zIdParam.shape),
    output: ZUsdtTransfer,
  }),
  adminPayUnmatchedList: defineRoute({
    method: 'GET',
    path: '/admin/payments/unmatched',
    auth: 'admin',
    summary:
      'USDT transfers to our addresses that matched no order (another amount, or past the time window), newest first',
    tag: 'admin',
    input: ZUsdtUnmatchedQuery,
    output: zPage(ZUsdtTransfer),
  }),
} as const satisfies Record<string, TRouteDef>;
