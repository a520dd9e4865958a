import { BYTES_PER_GB, zFairUseGbPerDay } from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { readSetting } from '../../lib/system-settings.repository';

/**
 * The system setting of the traffic included per day in an IP-billed dynamic proxy, in GB (0 or unset: off, the
 * default). While it is on, such a proxy bought or renewed gets that allowance for its days and may leave through
 * upstream pools (docs/pools.md, "Which proxies").
 */
export const IP_DYNAMIC_FAIR_USE_GB_PER_DAY = 'ip_dynamic_fair_use_gb_per_day';

/** The fair-use traffic in GB per day; 0 when off (unset, or a stored value the setting's rule refuses). */
export async function readFairUseGbPerDay(db: TDbOrTx): Promise<number> {
  const parsed = zFairUseGbPerDay.safeParse(await readSetting(db, IP_DYNAMIC_FAIR_USE_GB_PER_DAY));
  return parsed.success ? parsed.data : 0;
}

/** The allowance of `days` at `gbPerDay`, in bytes: tenths of a GB times days are exact, the one division rounds once. */
export function fairUseBytes(gbPerDay: number, days: number): number {
  return Math.round((Math.round(gbPerDay * 10) * days * BYTES_PER_GB) / 10);
}

/**
 * A token's traffic allowance after a renewal of `days` (docs/operator-guide.md, "Fair-use traffic"). Only an
 * IP-billed dynamic proxy with an allowance changes, which it has from a purchase under the setting: while the
 * setting is on, the renewal adds `gbPerDay` × days to it; while it is off, the renewed proxy has no cap, as one bought
 * while off (and so leaves by exits only). Every other token keeps its allowance (none for one bought while off).
 */
export function renewedAllowanceBytes(
  token: { product: string; billing: string; trafficLimitBytes: number | null },
  days: number,
  gbPerDay: number,
): number | null {
  if (token.product !== 'dynamic' || token.billing !== 'ip' || token.trafficLimitBytes === null)
    return token.trafficLimitBytes;
  return gbPerDay > 0 ? token.trafficLimitBytes + fairUseBytes(gbPerDay, days) : null;
}
