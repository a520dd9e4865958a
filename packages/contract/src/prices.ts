/**
 * List prices of spec section 9 as settled by ARCHITECTURE.md (Proxies), in
 * integer fen. The console shows them and the server charges them, so both
 * compute from these functions and can never disagree by a fen.
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
  if (!Number.isSafeInteger(micro * 4000)) throw new RangeError(`traffic too large: ${gb} GB`);
  return micro;
}

/** Fen per GB of a traffic purchase of `gb` GB (the tier of the whole purchase). */
export function trafficFenPerGb(kind: TPriceKind, gb: number): number {
  if (kind === 'idc') return IDC_TRAFFIC_FEN_PER_GB;
  const tier = RESIDENTIAL_TRAFFIC_TIERS_FEN.find((t) => gb >= t.fromGb);
  return (tier ?? RESIDENTIAL_TRAFFIC_TIERS_FEN[RESIDENTIAL_TRAFFIC_TIERS_FEN.length - 1]).fenPerGb;
}

/** Price in fen of `gb` GB of traffic (from 0.1 GB), rounded half up to the fen. */
export function priceTrafficFen(kind: TPriceKind, gb: number): number {
  const micro = toMicroGb(gb);
  return divideHalfUp(micro * trafficFenPerGb(kind, gb), MICRO_PER_GB);
}

/** Price in fen of one IP for `days` whole days (at least 1), rounded half up to the fen. */
export function priceIpFen(kind: TPriceKind, days: number): number {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be a whole number >= 1, got ${days}`);
  const months = Math.floor(days / IP_MONTH_DAYS);
  const rest = days - months * IP_MONTH_DAYS;
  switch (kind) {
    case 'static':
      return months * STATIC_IP_FEN_PER_MONTH + rest * STATIC_IP_FEN_PER_DAY;
    case 'dynamic':
      return days * DYNAMIC_IP_FEN_PER_DAY;
    case 'idc':
      return months * IDC_IP_FEN_PER_MONTH + divideHalfUp(rest * IDC_IP_FEN_PER_MONTH, IP_MONTH_DAYS);
  }
}
