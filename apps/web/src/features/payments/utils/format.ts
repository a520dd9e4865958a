import dayjs from 'dayjs';
import { formatYuan } from '@proxy/contract';

/** A movement of money with its sign: "+¥100.00", "-¥2.50", "¥0.00". */
export function formatSignedYuan(yuan: number): string {
  return yuan > 0 ? `+${formatYuan(yuan)}` : formatYuan(yuan);
}

/** A time of the API in the browser's time zone, to the second. */
export function formatTime(iso: string | null): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '-';
}
