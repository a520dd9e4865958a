import {
  PROXY_DAYS_MAX,
  PROXY_QUANTITY_MAX,
  PROXY_TRAFFIC_MAX_GB,
  priceIpFen,
  priceTrafficFen,
  trafficFenPerGb,
  TRAFFIC_MIN_GB,
  type TPriceCatalogue,
  type TPriceKind,
} from '@proxy/contract';
import type { TBilling } from './screens';

/** What the purchase form holds when the price is computed. */
export type TPriceInput = {
  billing: TBilling;
  quantity?: number | null;
  /** GB per token (traffic products). */
  trafficGb?: number | null;
  /** Days per token (IP products). */
  days?: number | null;
};

/**
 * Price of a purchase, or null while the form cannot be priced yet. unitFen is
 * the price per GB of the purchase's tier (traffic) or per IP (IP products).
 */
export type TPricePreview = { totalFen: number; unitFen: number; totalGb?: number } | null;

function isWhole(value: number | null | undefined, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

/**
 * The price the server will charge, from the contract's functions: traffic is
 * priced on the whole purchase (GB x quantity, so the tier is the purchase's),
 * IP products per token times the quantity.
 */
export function previewPrice(
  kind: TPriceKind,
  input: TPriceInput,
  catalogue?: Partial<TPriceCatalogue>,
): TPricePreview {
  // Out of the purchase bounds there is no price: the form refuses the value.
  if (!isWhole(input.quantity, 1) || input.quantity > PROXY_QUANTITY_MAX) return null;
  const quantity = input.quantity;
  if (input.billing === 'traffic') {
    const gb = input.trafficGb;
    if (typeof gb !== 'number' || !Number.isFinite(gb) || gb < TRAFFIC_MIN_GB || gb > PROXY_TRAFFIC_MAX_GB) return null;
    // Tenths are exact integers: the same arithmetic as the server's.
    const tenths = Math.round(gb * 10);
    if (Math.abs(gb * 10 - tenths) > 1e-9) return null;
    const totalGb = (tenths * quantity) / 10;
    return {
      totalFen: priceTrafficFen(kind, totalGb, catalogue),
      unitFen: trafficFenPerGb(kind, totalGb, catalogue),
      totalGb,
    };
  }
  if (!isWhole(input.days, 1) || input.days > PROXY_DAYS_MAX) return null;
  const unitFen = priceIpFen(kind, input.days, catalogue);
  return { totalFen: unitFen * quantity, unitFen };
}

/** Yuan from the API (at most two decimals) to fen. */
export function yuanNumberToFen(yuan: number): number {
  return Math.round(yuan * 100);
}
