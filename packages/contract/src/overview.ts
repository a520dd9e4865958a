import { z } from 'zod';
import { PROXY_BILLINGS, PROXY_CATEGORIES, PROXY_PRODUCTS } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zDigits } from './validators';

/**
 * The operator area's landing page: money and traffic per day, live proxies
 * by product, free stock by area, and the queues waiting for an operator.
 * Days are UTC calendar days, oldest first, every day of the window present.
 */

/** Longest window of the overview, in days. */
export const OVERVIEW_MAX_DAYS = 90;
/** Window of the overview when none is asked for. */
export const OVERVIEW_DEFAULT_DAYS = 30;

/** Window of the overview: the last `days` UTC days, today included. */
export const ZOverviewQuery = z.object({
  days: zDigits(
    z
      .number()
      .int({ error: 'overviewDaysRange' })
      .min(1, { error: 'overviewDaysRange' })
      .max(OVERVIEW_MAX_DAYS, { error: 'overviewDaysRange' }),
  ).default(OVERVIEW_DEFAULT_DAYS),
});
/** Parsed overview window. */
export type TOverviewQuery = z.output<typeof ZOverviewQuery>;

/** One day of money: successful recharges (count, amount paid in) and spend on proxies (purchases and renewals). Yuan. */
export const ZOverviewMoneyDay = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  recharge_count: z.number().int(),
  recharge_amount: z.number(),
  spend_amount: z.number(),
});

/** One day of metered traffic, in bytes. */
export const ZOverviewTrafficDay = z.object({ day: z.string(), bytes: z.number() });

/** Live proxies (not deleted, not expired) of one product. */
export const ZOverviewProductCount = z.object({
  category: z.enum(PROXY_CATEGORIES),
  product: z.enum(PROXY_PRODUCTS),
  billing: z.enum(PROXY_BILLINGS),
  count: z.number().int(),
});

/** Exits of one country and kind: active ones, and those free to sell (shared direct exits and upstream exits nobody holds). */
export const ZOverviewStock = z.object({
  country: z.string(),
  kind: z.enum(['residential', 'datacenter']),
  total: z.number().int(),
  free: z.number().int(),
});

/** The overview. */
export const ZOverview = z.object({
  days: z.number().int(),
  money: z.array(ZOverviewMoneyDay),
  traffic: z.array(ZOverviewTrafficDay),
  active_proxies: z.array(ZOverviewProductCount),
  stock: z.array(ZOverviewStock),
  /** Supply requests waiting to be taken. */
  pending_supply: z.number().int(),
  /** Work orders waiting for an operator's answer. */
  open_work_orders: z.number().int(),
  /** USDT transfers that matched no order. */
  unmatched_payments: z.number().int(),
});
/** Parsed overview. */
export type TOverview = z.infer<typeof ZOverview>;

/** The operator area's overview. */
export const OVERVIEW_ADMIN_ROUTES = {
  adminOverview: defineRoute({
    method: 'GET',
    path: '/admin/overview',
    auth: 'admin',
    summary:
      'Recharges, spend and traffic per day; live proxies by product; free stock by area; pending supply, open work orders, unmatched payments',
    tag: 'admin',
    input: ZOverviewQuery,
    output: ZOverview,
  }),
} as const satisfies Record<string, TRouteDef>;
