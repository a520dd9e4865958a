import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';

/**
 * Prices. The list prices of spec section 9 as settled by ARCHITECTURE.md
 * (Proxies), in integer fen: the console shows them and the server charges
 * them, so both compute from these functions and can never disagree by a fen.
 *
 * Operators' price catalogue (spec section 9 prices, edited): every change is
 * a version with an effective time. The price of a key is its latest version
 * in effect, else its list price (version 0). A purchase records the versions
 * that priced it.
 */

/** Product families with a price: static residential, dynamic residential, data-center. */
export const PRICE_KINDS = ['static', 'dynamic', 'idc'] as const;
/** A product family with a price. */
export type TPriceKind = (typeof PRICE_KINDS)[number];

/** Residential traffic (static and dynamic alike): fen per GB by the GB bought in one purchase. */
export const RESIDENTIAL_TRAFFIC_TIERS_FEN = [
  { fromGb: 500, fenPerGb: 3500 },
  { fromGb: 100, fenPerGb: 3800 },
  { fromGb: 0, fenPerGb: 4000 },
] as const;
/** Data-center traffic, fen per GB. */
export const IDC_TRAFFIC_FEN_PER_GB = 1000;

/** Days in one priced month of IP products. */
export const IP_MONTH_DAYS = 30;
/** Static residential IP: fen per day. */
export const STATIC_IP_FEN_PER_DAY = 200;
/** Static residential IP: fen per whole 30 days. */
export const STATIC_IP_FEN_PER_MONTH = 6000;
/** Dynamic residential IP: fen per day. */
export const DYNAMIC_IP_FEN_PER_DAY = 200;
/** Data-center IP: fen per whole 30 days; remaining days cost a thirtieth of it each. */
export const IDC_IP_FEN_PER_MONTH = 4000;

/** Keys of the price catalogue (the database's price_catalogue rows), each an amount in fen. */
export const PRICE_KEYS = [
  'residential_traffic_tier0_fen',
  'residential_traffic_tier1_fen',
  'residential_traffic_tier2_fen',
  'idc_traffic_fen',
  'static_ip_day_fen',
  'static_ip_month_fen',
  'dynamic_ip_day_fen',
  'idc_ip_month_fen',
] as const;
/** A key of the price catalogue. */
export type TPriceKey = (typeof PRICE_KEYS)[number];
/** Every list price in fen, by key; tiers 0/1/2 of residential traffic start at 0, 100 and 500 GB. */
export type TPriceCatalogue = Record<TPriceKey, number>;

/** The list prices of spec section 9 (what a fresh install seeds into the database). */
export const DEFAULT_PRICE_CATALOGUE: TPriceCatalogue = {
  residential_traffic_tier0_fen: RESIDENTIAL_TRAFFIC_TIERS_FEN[2].fenPerGb,
  residential_traffic_tier1_fen: RESIDENTIAL_TRAFFIC_TIERS_FEN[1].fenPerGb,
  residential_traffic_tier2_fen: RESIDENTIAL_TRAFFIC_TIERS_FEN[0].fenPerGb,
  idc_traffic_fen: IDC_TRAFFIC_FEN_PER_GB,
  static_ip_day_fen: STATIC_IP_FEN_PER_DAY,
  static_ip_month_fen: STATIC_IP_FEN_PER_MONTH,
  dynamic_ip_day_fen: DYNAMIC_IP_FEN_PER_DAY,
  idc_ip_month_fen: IDC_IP_FEN_PER_MONTH,
};

// A catalogue value, or the default when the catalogue lacks it (or holds nonsense).
function priceOf(catalogue: Partial<TPriceCatalogue> | undefined, key: TPriceKey): number {
  const value = catalogue?.[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : DEFAULT_PRICE_CATALOGUE[key];
}

/** Smallest traffic purchase, in GB. */
export const TRAFFIC_MIN_GB = 0.1;
/** Days a traffic allowance stays valid. */
export const TRAFFIC_VALID_DAYS = 30;

// GB amounts are scaled to integer micro-GB so 0.1 GB and friends carry no float error.
const MICRO_PER_GB = 1_000_000;

/** numerator / denominator rounded half up, for non-negative safe integers. */
function divideHalfUp(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  return remainder * 2 >= denominator ? quotient + 1 : quotient;
}

function toMicroGb(gb: number): number {
  if (!Number.isFinite(gb) || gb < TRAFFIC_MIN_GB) {
    throw new RangeError(`traffic must be at least ${TRAFFIC_MIN_GB} GB, got ${gb}`);
  }
  const micro = Math.round(gb * MICRO_PER_GB);
  if (!Number.isSafeInteger(micro)) throw new RangeError(`traffic too large: ${gb} GB`);
  return micro;
}

/** Fen per GB of a traffic purchase of `gb` GB (the tier of the whole purchase); catalogue values win over the defaults. */
export function trafficFenPerGb(kind: TPriceKind, gb: number, catalogue?: Partial<TPriceCatalogue>): number {
  if (kind === 'idc') return priceOf(catalogue, 'idc_traffic_fen');
  const tier = RESIDENTIAL_TRAFFIC_TIERS_FEN.find((t) => gb >= t.fromGb) ?? RESIDENTIAL_TRAFFIC_TIERS_FEN[RESIDENTIAL_TRAFFIC_TIERS_FEN.length - 1];
  const key: TPriceKey =
    tier.fromGb >= 500 ? 'residential_traffic_tier2_fen' : tier.fromGb >= 100 ? 'residential_traffic_tier1_fen' : 'residential_traffic_tier0_fen';
  return priceOf(catalogue, key);
}

/** Price in fen of `gb` GB of traffic (from 0.1 GB), rounded half up to the fen. */
export function priceTrafficFen(kind: TPriceKind, gb: number, catalogue?: Partial<TPriceCatalogue>): number {
  const micro = toMicroGb(gb);
  const fenPerGb = trafficFenPerGb(kind, gb, catalogue);
  if (Number.isSafeInteger(micro * fenPerGb)) return divideHalfUp(micro * fenPerGb, MICRO_PER_GB);
  // The largest purchases (100,000 GB on each of many proxies) pass 2^53 micro-fen: exact in bigints.
  const product = BigInt(micro) * BigInt(fenPerGb);
  const divisor = BigInt(MICRO_PER_GB);
  const fen = product / divisor + ((product % divisor) * 2n >= divisor ? 1n : 0n);
  if (fen > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`traffic too large: ${gb} GB`);
  return Number(fen);
}

/** Price in fen of one IP for `days` whole days (at least 1), rounded half up to the fen. */
export function priceIpFen(kind: TPriceKind, days: number, catalogue?: Partial<TPriceCatalogue>): number {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be a whole number >= 1, got ${days}`);
  const months = Math.floor(days / IP_MONTH_DAYS);
  const rest = days - months * IP_MONTH_DAYS;
  switch (kind) {
    case 'static':
      return months * priceOf(catalogue, 'static_ip_month_fen') + rest * priceOf(catalogue, 'static_ip_day_fen');
    case 'dynamic':
      return days * priceOf(catalogue, 'dynamic_ip_day_fen');
    case 'idc': {
      const month = priceOf(catalogue, 'idc_ip_month_fen');
      return months * month + divideHalfUp(rest * month, IP_MONTH_DAYS);
    }
  }
}

/** The price catalogue in fen by key, as GET /token/prices answers it. */
export const ZPriceCatalogue = z.object(Object.fromEntries(PRICE_KEYS.map((k) => [k, z.number().int()])) as Record<(typeof PRICE_KEYS)[number], z.ZodNumber>);

/** The price catalogue. */
export const PRICING_ROUTES = {
  tokenPrices: defineRoute({ method: 'GET', path: '/token/prices', auth: 'user', summary: 'Price catalogue in fen', tag: 'proxy', output: ZPriceCatalogue }),
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
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(ADMIN_AMOUNT_MAX_FEN, { error: message });
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
  .meta({ examples: [{ prices: [{ item: 'idc_traffic_fen', amount_fen: 1200 }], effective_at: '2026-12-01T00:00:00+08:00' }] });
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
    summary: 'Every price key: the price in effect and its version (0 = list price), the list price, and the versions scheduled for later',
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
