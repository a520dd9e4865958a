import { BYTES_PER_GB, type TProxyToken } from '@proxy/contract';

/** Share of the traffic allowance used, 0-100 (null for IP products). */
export function usagePercent(usage: TProxyToken['usage']): number | null {
  if (usage.limit_bytes === null || usage.limit_bytes <= 0) return null;
  return Math.min(100, Math.round((usage.used_bytes / usage.limit_bytes) * 1000) / 10);
}

/** A traffic allowance in GB as it was bought ("0.1 GB"), up to two decimals. */
export function formatAllowance(bytes: number): string {
  return `${Math.round((bytes / BYTES_PER_GB) * 100) / 100} GB`;
}

/** The area as "Country / State / City", skipping the parts that are "any". */
export function formatArea(area: TProxyToken['area']): string {
  return [area.country_name || area.country.toUpperCase(), area.state_name || area.state, area.city_name || area.city]
    .filter(Boolean)
    .join(' / ');
}

/** A password hidden but for its length (at most 12 dots). */
export function maskSecret(secret: string): string {
  return '•'.repeat(Math.min(12, Math.max(6, secret.length)));
}
