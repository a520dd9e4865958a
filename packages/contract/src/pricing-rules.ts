/**
 * Prices. The list prices of spec section 9 as settled by ARCHITECTURE.md
 * (Proxies), in integer fen: the console shows them and the server charges
 * them, so both compute from these functions and can never disagree by a fen.
 * Kept apart from pricing.ts and free of zod, so a screen that only shows
 * prices loads no schema.
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
  const tier =
    RESIDENTIAL_TRAFFIC_TIERS_FEN.find((t) => gb >= t.fromGb) ??
    RESIDENTIAL_TRAFFIC_TIERS_FEN[RESIDENTIAL_TRAFFIC_TIERS_FEN.length - 1];
  const key: TPriceKey =
    tier.fromGb >= 500
      ? 'residential_traffic_tier2_fen'
      : tier.fromGb >= 100
        ? 'residential_traffic_tier1_fen'
        : 'residential_traffic_tier0_fen';
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
