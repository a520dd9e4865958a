import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { PRICE_KEYS } from './pricing-rules';

/**
 * The price catalogue's calls, and operators' versions of it (spec section 9
 * prices, edited): every change is a version with an effective time. The price
 * of a key is its latest version in effect, else its list price (version 0). A
 * purchase records the versions that priced it. The list prices and the price
 * functions are in pricing-rules.ts.
 */

/** The price catalogue in fen by key, as GET /token/prices answers it. */
export const ZPriceCatalogue = z.object(
  Object.fromEntries(PRICE_KEYS.map((k) => [k, z.number().int()])) as Record<(typeof PRICE_KEYS)[number], z.ZodNumber>,
);

/** The price catalogue. */
export const PRICING_ROUTES = {
  tokenPrices: defineRoute({
    method: 'GET',
    path: '/token/prices',
    auth: 'user',
    summary: 'Price catalogue in fen',
    tag: 'proxy',
    output: ZPriceCatalogue,
  }),
} as const satisfies Record<string, TRouteDef>;

// --- operators' versions of the catalogue ---------------------------------

/** Highest price or recharge amount operators may set, in fen (one million yuan). */
export const ADMIN_AMOUNT_MAX_FEN = 100_000_000;
/** How far ahead a version may be scheduled, in days. */
export const VERSION_SCHEDULE_MAX_DAYS = 366;
/** A requested effective time this close to the past (clock skew) counts as now, in ms. */
export const EFFECTIVE_AT_SKEW_MS = 60_000;

/** Where a version stands: not yet in effect, in effect now, or replaced. */
export const VERSION_STATUSES = ['scheduled', 'current', 'past'] as const;
/** Where a version stands. */
export type TVersionStatus = (typeof VERSION_STATUSES)[number];

/** An optional effective time: ISO 8601 with an offset; absent means now. */
export const zEffectiveAt = z.iso.datetime({ offset: true, error: 'dateInvalid' }).optional();

/** A whole number of fen from `min` to ADMIN_AMOUNT_MAX_FEN (JSON number). */
export function zFen(min: number, message: string) {
  return z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(ADMIN_AMOUNT_MAX_FEN, { error: message });
}

/** One version of one price. */
export const ZPriceVersion = z.object({
  /** The version number (0 is the list price). */
  id: z.number().int(),
  key: z.enum(PRICE_KEYS),
  amount_fen: z.number().int(),
  effective_at: z.string().nullable(),
  created_at: z.string().nullable(),
  /** E-mail of the operator who made it. */
  created_by: z.string().nullable(),
  status: z.enum(VERSION_STATUSES),
});
/** Parsed price version. */
export type TPriceVersion = z.infer<typeof ZPriceVersion>;

/** One key of the catalogue: its price now, its list price and its scheduled versions (soonest first). */
export const ZAdminPrice = z.object({
  key: z.enum(PRICE_KEYS),
  amount_fen: z.number().int(),
  /** The version in effect (0: the list price). */
  version_id: z.number().int(),
  effective_at: z.string().nullable(),
  default_fen: z.number().int(),
  scheduled: z.array(ZPriceVersion),
});
/** Parsed catalogue row. */
export type TAdminPrice = z.infer<typeof ZAdminPrice>;

/** GET /admin/prices. */
export const ZAdminPrices = z.object({ prices: z.array(ZAdminPrice) });
/** Parsed catalogue. */
export type TAdminPrices = z.infer<typeof ZAdminPrices>;

/** POST /admin/prices: new prices of one or more keys, in effect from `effective_at` (absent: now). */
export const ZPriceVersionInput = z
  .object({
    prices: z
      .array(
        z.object({
          /** The price key (named "item" so the audit, which hides fields named like secrets, keeps it). */
          item: z.enum(PRICE_KEYS, { error: 'priceKeyInvalid' }),
          amount_fen: zFen(1, 'priceAmountRange'),
        }),
        { error: 'pricesRequired' },
      )
      .min(1, { error: 'pricesRequired' })
      .max(PRICE_KEYS.length, { error: 'priceKeyDuplicate' })
      .superRefine((prices, ctx) => {
        const seen = new Set<string>();
        prices.forEach((p, i) => {
          if (seen.has(p.item)) ctx.addIssue({ code: 'custom', path: [i, 'item'], message: 'priceKeyDuplicate' });
          seen.add(p.item);
        });
      }),
    effective_at: zEffectiveAt,
  })
  .meta({
    examples: [{ prices: [{ item: 'idc_traffic_fen', amount_fen: 1200 }], effective_at: '2026-12-01T00:00:00+08:00' }],
  });
/** Parsed price change. */
export type TPriceVersionInput = z.infer<typeof ZPriceVersionInput>;

/** GET /admin/prices/history: every version, newest first, optionally of one key. */
export const ZPriceHistoryQuery = ZPageQuery.extend({
  key: z.enum(PRICE_KEYS, { error: 'priceKeyInvalid' }).optional(),
});
/** Parsed history query. */
export type TPriceHistoryQuery = z.output<typeof ZPriceHistoryQuery>;

/** Operators: the price catalogue, its versions and new versions (audited). */
export const PRICING_ADMIN_ROUTES = {
  adminPriceList: defineRoute({
    method: 'GET',
    path: '/admin/prices',
    auth: 'admin',
    summary:
      'Every price key: the price in effect and its version (0 = list price), the list price, and the versions scheduled for later',
    tag: 'admin',
    output: ZAdminPrices,
  }),
  adminPriceHistory: defineRoute({
    method: 'GET',
    path: '/admin/prices/history',
    auth: 'admin',
    summary: 'Price versions, newest first (optionally of one key), each scheduled, current or past',
    tag: 'admin',
    input: ZPriceHistoryQuery,
    output: zPage(ZPriceVersion),
  }),
  adminPriceCreate: defineRoute({
    method: 'POST',
    path: '/admin/prices',
    auth: 'admin',
    body: 'json',
    summary:
      'New prices (whole fen) of one or more keys as new versions, in effect from effective_at (absent: now; at most a year ahead); the next purchase after that time pays them and records their versions',
    tag: 'admin',
    input: ZPriceVersionInput,
    output: z.object({ versions: z.array(ZPriceVersion) }),
  }),
} as const satisfies Record<string, TRouteDef>;
