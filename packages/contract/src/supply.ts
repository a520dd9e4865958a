import { z } from 'zod';
import { isIsoCountryCode } from './areas';
import { ZPageQuery, zPage } from './envelope';
import { priceIpFen, priceTrafficFen, type TPriceCatalogue, type TPriceKind } from './pricing-rules';
import { PROXY_NETWORKS, zProxyDays } from './proxies-tokens';
import { defineRoute, type TRouteDef } from './route-def';
import { zEmail, zIdParam, zJsonNumber } from './validators';

/**
 * Supply (restock) requests (spec sections 3, 4, 5 and 9): a customer asks for
 * stock in an area that has none and pays in advance; the fee is frozen on
 * submit, consumed when an operator completes the restock (and the traffic
 * package or IPs are allocated), released when the request is revoked, fails,
 * or waits past its wait days.
 */

/** By traffic (GB) or by IP (count). */
export const SUPPLY_TYPES = ['traffic', 'ip'] as const;
/** A supply type. */
export type TSupplyType = (typeof SUPPLY_TYPES)[number];

/** Products a supply request can ask for: static residential, dynamic residential, data-center (the price families). */
export const SUPPLY_PRODUCTS = ['static', 'dynamic', 'idc'] as const satisfies readonly TPriceKind[];
/** A supply product. */
export type TSupplyProduct = (typeof SUPPLY_PRODUCTS)[number];

/** States of a supply request (spec section 4): pending, then processing, then one of the ends. */
export const SUPPLY_STATUSES = ['pending', 'processing', 'success', 'cancelled', 'failed', 'refunded'] as const;
/** A supply state. */
export type TSupplyStatus = (typeof SUPPLY_STATUSES)[number];
/** States in which the fee is still frozen. */
export const SUPPLY_OPEN_STATUSES = ['pending', 'processing'] as const satisfies readonly TSupplyStatus[];

/** Regions the form offers first (spec section 3); any other ISO 3166-1 country is accepted too. */
export const SUPPLY_REGIONS = ['cn', 'us', 'uk', 'jp', 'kr', 'de'] as const;
/** The spec says "uk"; the inventory stores ISO 3166-1 codes, where it is "gb". */
const REGION_ALIASES: Record<string, string> = { uk: 'gb' };

/** The ISO country code of a region as the form or the spec names it ("uk" -> "gb"). */
export function supplyRegionCode(region: string): string {
  const code = region.trim().toLowerCase();
  return REGION_ALIASES[code] ?? code;
}

/** A region as customers and operators see it: the spec's "uk" for the United Kingdom, else the ISO code. */
export function supplyRegionShown(code: string): string {
  return code === 'gb' ? 'uk' : code;
}

/** Supply limits (spec section 9). */
export const SUPPLY_TRAFFIC_MIN_GB = 1;
export const SUPPLY_TRAFFIC_MAX_GB = 1000;
export const SUPPLY_IP_MIN = 1;
export const SUPPLY_IP_MAX = 100;
export const SUPPLY_WAIT_DAYS_MIN = 1;
export const SUPPLY_WAIT_DAYS_MAX = 30;
/** Days of each IP of an IP request when none is given. */
export const SUPPLY_IP_DAYS_DEFAULT = 30;
/** Remark length. */
export const SUPPLY_REMARK_MAX = 200;
/** Length of an operator's failure reason. */
export const SUPPLY_REASON_MAX = 200;

/** The bounds of `amount` by type, with the message of each. */
export const SUPPLY_AMOUNT_BOUNDS = {
  traffic: { min: SUPPLY_TRAFFIC_MIN_GB, max: SUPPLY_TRAFFIC_MAX_GB, message: 'supplyTrafficRange' },
  ip: { min: SUPPLY_IP_MIN, max: SUPPLY_IP_MAX, message: 'supplyIpRange' },
} as const satisfies Record<TSupplyType, { min: number; max: number; message: string }>;

/** What the fee depends on. */
export type TSupplyQuote = { type: TSupplyType; product: TSupplyProduct; amount: number; days?: number };

/**
 * The fee of a supply request in fen: the list price of what it asks for (the
 * price functions a purchase uses), so a restock costs what buying it would.
 * Traffic: `amount` GB at the tier of the whole amount; IP: `amount` IPs of
 * `days` days each.
 */
export function supplyFeeFen(quote: TSupplyQuote, catalogue?: Partial<TPriceCatalogue>): number {
  if (quote.type === 'traffic') return priceTrafficFen(quote.product, quote.amount, catalogue);
  return priceIpFen(quote.product, quote.days ?? SUPPLY_IP_DAYS_DEFAULT, catalogue) * quote.amount;
}

/** Region: an ISO 3166-1 alpha-2 country ("uk", the spec's spelling, taken as "gb"); "zz" or "xx" is refused. */
export const zSupplyRegion = z
  .string({ error: 'supplyRegionRequired' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'supplyRegionRequired' })
  .transform(supplyRegionCode)
  .refine(isIsoCountryCode, { error: 'supplyRegionInvalid' });

/** Body of POST /token/supply (spec section 5 rules, messages in both languages). */
export const ZSupplyCreateBody = z
  .object({
    type: z.enum(SUPPLY_TYPES, { error: 'supplyTypeInvalid' }),
    product: z.enum(SUPPLY_PRODUCTS, { error: 'supplyProductInvalid' }),
    network: z.enum(PROXY_NETWORKS, { error: 'invalidValue' }).default('HTTP'),
    /** GB (traffic, 1-1000) or IPs (1-100), a whole number. */
    amount: zJsonNumber('numberRequired'),
    /** IP requests: days of each IP (default 30). Ignored for traffic. */
    days: zProxyDays.optional(),
    region: zSupplyRegion,
    wait_days: zJsonNumber('supplyWaitDaysRange')
      .int({ error: 'supplyWaitDaysRange' })
      .min(SUPPLY_WAIT_DAYS_MIN, { error: 'supplyWaitDaysRange' })
      .max(SUPPLY_WAIT_DAYS_MAX, { error: 'supplyWaitDaysRange' }),
    remark: z.string().trim().max(SUPPLY_REMARK_MAX, { error: 'supplyRemarkMax' }).default(''),
    contact_email: z
      .string({ error: 'supplyContactEmailRequired' })
      .trim()
      .min(1, { error: 'supplyContactEmailRequired' })
      .pipe(zEmail),
    agree_terms: z.literal(true, { error: 'supplyTermsRequired' }),
  })
  .superRefine((body, ctx) => {
    const bounds = SUPPLY_AMOUNT_BOUNDS[body.type];
    if (!Number.isInteger(body.amount) || body.amount < bounds.min || body.amount > bounds.max)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: bounds.message });
  })
  .meta({
    examples: [
      {
        type: 'traffic',
        product: 'dynamic',
        network: 'HTTP',
        amount: 2,
        region: 'us',
        wait_days: 7,
        remark: 'for the shop crawler',
        contact_email: 'ann@example.com',
        agree_terms: true,
      },
    ],
  });
/** Parsed create body. */
export type TSupplyCreateBody = z.output<typeof ZSupplyCreateBody>;

/** A supply request as the customer sees it (spec section 3). Money in yuan, times ISO. */
export const ZSupplyRequest = z
  .object({
    request_id: z.number().int(),
    type: z.enum(SUPPLY_TYPES),
    product: z.enum(SUPPLY_PRODUCTS),
    network: z.enum(PROXY_NETWORKS),
    /** GB (traffic) or IPs (ip). */
    amount: z.number().int(),
    /** IP requests: days of each IP; null for traffic. */
    days: z.number().int().nullable(),
    /** ISO country code ("gb" for the spec's "uk"). */
    region: z.string(),
    /** The region's name in the request's language. */
    region_name: z.string(),
    wait_days: z.number().int(),
    /** The pre-deducted (frozen) fee. */
    cost: z.number(),
    remark: z.string(),
    contact_email: z.string(),
    status: z.enum(SUPPLY_STATUSES),
    submit_time: z.string(),
    /** When it ended (success, failed, cancelled or refunded); null while open. */
    completed_time: z.string().nullable(),
    /** Past this time, an open request is refunded. */
    deadline: z.string(),
    /** Why an operator failed it. */
    fail_reason: z.string().nullable(),
    /** The work order that discusses it (null until the work-order feature links one). */
    work_order_id: z.number().int().nullable(),
  })
  .meta({
    examples: [
      {
        request_id: 12,
        type: 'traffic',
        product: 'dynamic',
        network: 'HTTP',
        amount: 2,
        days: null,
        region: 'us',
        region_name: 'United States',
        wait_days: 7,
        cost: 80,
        remark: '',
        contact_email: 'ann@example.com',
        status: 'pending',
        submit_time: '2026-11-22T08:00:00.000Z',
        completed_time: null,
        deadline: '2026-11-29T08:00:00.000Z',
        fail_reason: null,
        work_order_id: null,
      },
    ],
  });
/** Parsed supply request. */
export type TSupplyRequest = z.infer<typeof ZSupplyRequest>;

/** Answer of a create: the request and the balances right after the freeze (yuan). */
export const ZSupplyCreateResult = ZSupplyRequest.extend({ balance: z.number(), frozen_balance: z.number() });
/** Parsed create answer. */
export type TSupplyCreateResult = z.infer<typeof ZSupplyCreateResult>;

/** Filters of the customer's list. */
export const ZSupplyListQuery = ZPageQuery.extend({
  status: z.enum(SUPPLY_STATUSES, { error: 'invalidValue' }).optional(),
});
/** Parsed list filters. */
export type TSupplyListQuery = z.output<typeof ZSupplyListQuery>;

/** The customer's supply calls (paths beside the spec's /token calls). */
export const SUPPLY_ROUTES = {
  supplyCreate: defineRoute({
    method: 'POST',
    path: '/token/supply',
    auth: 'user',
    summary:
      'Submit a supply (restock) request; its fee (the list price of what it asks for) is frozen from the available balance until the restock succeeds (consumed), fails, is revoked or waits past wait_days (released). Optional Idempotency-Key header',
    tag: 'supply',
    input: ZSupplyCreateBody,
    output: ZSupplyCreateResult,
  }),
  supplyList: defineRoute({
    method: 'GET',
    path: '/token/supply/list',
    auth: 'user',
    isCachedPerUser: true,
    summary: "The user's supply requests, newest first (filter by status)",
    tag: 'supply',
    input: ZSupplyListQuery,
    output: zPage(ZSupplyRequest),
  }),
  supplyDetail: defineRoute({
    method: 'GET',
    path: '/token/supply/:id',
    auth: 'user',
    summary: "One supply request; another user's is not found",
    tag: 'supply',
    input: zIdParam,
    output: ZSupplyRequest,
  }),
  supplyRevoke: defineRoute({
    method: 'POST',
    path: '/token/supply/revoke/:id',
    auth: 'user',
    summary: 'Revoke (cancel) a pending supply request; its frozen fee is released',
    tag: 'supply',
    input: zIdParam,
    output: ZSupplyRequest,
  }),
  supplyContactConfirm: defineRoute({
    method: 'POST',
    path: '/token/supply/contact/confirm',
    auth: 'none',
    summary:
      "Confirm a supply request's contact address with the token of the link mailed to it (the public page /supply/contact/confirm asks for a click first); until confirmed, a request's e-mails go to the account's own address",
    tag: 'supply',
    input: z.object({ token: z.string().trim().min(1).max(128) }),
    output: z.object({ email: z.string() }),
  }),
} as const satisfies Record<string, TRouteDef>;

/** A supply request as operators see it: the customer and the region's free exits for the product. */
export const ZSupplyAdminRequest = ZSupplyRequest.extend({
  user_id: z.number().int(),
  user_email: z.string(),
  /** Exits of the product's kind in the region available now (what the purchase form shows). */
  available: z.number().int(),
});
/** Parsed operator view. */
export type TSupplyAdminRequest = z.infer<typeof ZSupplyAdminRequest>;

/** Filters of the operators' queue. */
export const ZSupplyAdminListQuery = ZSupplyListQuery;

/** Body of the operator's fail call: the reason the customer is told. */
export const ZSupplyFailBody = z.object({
  id: zIdParam.shape.id,
  reason: z
    .string({ error: 'supplyReasonRequired' })
    .trim()
    .min(1, { error: 'supplyReasonRequired' })
    .max(SUPPLY_REASON_MAX, { error: 'tooLong' }),
});

/** Operators: the supply queue, taking a request, completing it with the allocation, failing it with a reason. */
export const SUPPLY_ADMIN_ROUTES = {
  adminSupplyList: defineRoute({
    method: 'GET',
    path: '/admin/supply/list',
    auth: 'admin',
    summary: 'Supply requests of every customer, oldest open first, with the free exits of their region',
    tag: 'admin',
    input: ZSupplyAdminListQuery,
    output: zPage(ZSupplyAdminRequest),
  }),
  adminSupplyTake: defineRoute({
    method: 'POST',
    path: '/admin/supply/take/:id',
    auth: 'admin',
    summary: 'Take a pending supply request (it becomes processing)',
    tag: 'admin',
    input: zIdParam,
    output: ZSupplyAdminRequest,
  }),
  adminSupplyComplete: defineRoute({
    method: 'POST',
    path: '/admin/supply/complete/:id',
    auth: 'admin',
    summary:
      'Complete a processing supply request: the frozen fee is consumed and the traffic package or the IPs are allocated to the customer, in one transaction; SUPPLY_NO_STOCK says what the region lacks',
    tag: 'admin',
    input: zIdParam,
    output: ZSupplyAdminRequest,
  }),
  adminSupplyFail: defineRoute({
    method: 'POST',
    path: '/admin/supply/fail/:id',
    auth: 'admin',
    summary: 'Fail a pending or processing supply request with a reason; its frozen fee is released',
    tag: 'admin',
    input: ZSupplyFailBody,
    output: ZSupplyAdminRequest,
  }),
} as const satisfies Record<string, TRouteDef>;
