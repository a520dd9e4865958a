import dayjs from 'dayjs';
import { formatYuan, type TLang } from '@proxy/contract/light';

/**
 * How the console writes bytes, money, times and durations. Screens take their text from here, so one quantity
 * reads the same on every screen. Money is the contract's formatter (`formatYuan` for yuan from the API,
 * `formatFen` for fen), re-exported here with the signed form the statements use.
 */

export { formatFen, formatYuan } from '@proxy/contract/light';

/** Binary units (allowances are sold in GB of 1024^3 bytes). */
const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
/** A unit of bytes. */
export type TByteUnit = (typeof BYTE_UNITS)[number];

/** The unit that shows the largest value with at most four integer digits. */
export function pickByteUnit(maxBytes: number): TByteUnit {
  let index = 0;
  while (index < BYTE_UNITS.length - 1 && maxBytes >= 1024 ** (index + 1)) index++;
  return BYTE_UNITS[index];
}

/** Bytes in a unit, rounded to two decimals. */
export function bytesIn(bytes: number, unit: TByteUnit): number {
  return Math.round((bytes / 1024 ** BYTE_UNITS.indexOf(unit)) * 100) / 100;
}

/** Traffic: "1.50 GB", two decimals above bytes ("0 B", "1023 B", "1.00 KB"). */
export function formatBytes(bytes: number): string {
  const unit = pickByteUnit(bytes);
  return `${bytesIn(bytes, unit).toFixed(unit === 'B' ? 0 : 2)} ${unit}`;
}

/** Traffic used beside an allowance bought in GB: "1.5 GB", up to two decimals; a negative count is "0 B". */
export function formatBytesTrimmed(bytes: number): string {
  const count = Math.max(0, bytes);
  const unit = pickByteUnit(count);
  return `${unit === 'B' ? count : Number((count / 1024 ** BYTE_UNITS.indexOf(unit)).toFixed(2))} ${unit}`;
}

/** The size of a download: "1.5 MB", one decimal above bytes ("0 B", "1023 B", "2.0 KB"). */
export function formatFileSize(bytes: number): string {
  const unit = pickByteUnit(bytes);
  return unit === 'B' ? `${bytes} B` : `${(bytes / 1024 ** BYTE_UNITS.indexOf(unit)).toFixed(1)} ${unit}`;
}

/** A movement of money with its sign: "+¥100.00", "-¥2.50", "¥0.00". */
export function formatSignedYuan(yuan: number): string {
  return yuan > 0 ? `+${formatYuan(yuan)}` : formatYuan(yuan);
}

/** What a missing time shows. */
const NO_TIME = '—';

// The time formatters take one argument, so a table column can take one as its `render`.

/** A time of the API in the browser's time zone, to the second: "2026-05-01 08:00:00" ("—" when there is none). */
export function formatDateTimeSeconds(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : NO_TIME;
}

/** A time of the API in the browser's time zone, to the minute: "2026-05-01 08:00" ("—" when there is none). */
export function formatDateTimeMinutes(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : NO_TIME;
}

/** The month and day of a day ("2026-05-01") or a time, as chart axes label them: "05-01". */
export function formatMonthDay(dayOrIso: string): string {
  return dayjs(dayOrIso).format('MM-DD');
}

/** A day written out in the console's language, in the browser's time zone: "2026/5/1" in zh, "5/1/2026" in en. */
export function formatLongDate(iso: string, lang: TLang): string {
  return new Date(iso).toLocaleDateString(lang === 'zh' ? 'zh-CN' : 'en');
}

/** A duration measured in milliseconds (a latency): "120 ms". */
export function formatMilliseconds(ms: number): string {
  return `${ms} ms`;
}
