/** Binary units of the traffic chart (allowances are sold in GB of 1024^3 bytes). */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
/** A traffic unit. */
export type TByteUnit = (typeof UNITS)[number];

/** The unit that shows the largest value with at most four integer digits. */
export function pickByteUnit(maxBytes: number): TByteUnit {
  let index = 0;
  while (index < UNITS.length - 1 && maxBytes >= 1024 ** (index + 1)) index++;
  return UNITS[index];
}

/** Bytes in a unit, rounded to two decimals. */
export function bytesIn(bytes: number, unit: TByteUnit): number {
  return Math.round((bytes / 1024 ** UNITS.indexOf(unit)) * 100) / 100;
}

/** "1.50 GB"-style text of a byte count. */
export function formatBytes(bytes: number): string {
  const unit = pickByteUnit(bytes);
  return `${bytesIn(bytes, unit).toFixed(unit === 'B' ? 0 : 2)} ${unit}`;
}
