import dayjs from 'dayjs';
import { BYTES_PER_GB, type TProxyToken } from '@proxy/contract';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in binary units with up to two decimals ("1.5 GB"), as the allowance is counted (1 GB = 1024^3 bytes). */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toFixed(2))} ${UNITS[unit]}`;
}

/** Share of the traffic allowance used, 0-100 (null for IP products). */
export function usagePercent(usage: TProxyToken['usage']): number | null {
  if (usage.limit_bytes === null || usage.limit_bytes <= 0) return null;
  return Math.min(100, Math.round((usage.used_bytes / usage.limit_bytes) * 1000) / 10);
}

/** A traffic allowance in GB as it was bought ("0.1 GB"), up to two decimals. */
export function formatAllowance(bytes: number): string {
  return `${Math.round((bytes / BYTES_PER_GB) * 100) / 100} GB`;
}

/** Date and time as the lists show them. */
export function formatDateTime(iso: string): string {
  return dayjs(iso).format('YYYY-MM-DD HH:mm:ss');
}

/** The area as "Country / State / City", skipping the parts that are "any". */
export function formatArea(area: TProxyToken['area']): string {
  return [area.country_name || area.country.toUpperCase(), area.state_name || area.state, area.city_name || area.city].filter(Boolean).join(' / ');
}

/** A password hidden but for its length (at most 12 dots). */
export function maskSecret(secret: string): string {
  return '•'.repeat(Math.min(12, Math.max(6, secret.length)));
}
