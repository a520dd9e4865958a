import { formatYuan } from '@proxy/contract';

/** A movement of money with its sign: "+¥100.00", "-¥2.50", "¥0.00". */
export function formatSignedYuan(yuan: number): string {
  return yuan > 0 ? `+${formatYuan(yuan)}` : formatYuan(yuan);
}
