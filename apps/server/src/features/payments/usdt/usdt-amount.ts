/**
 * USDT amounts of orders, in integer units of 10^-6 USDT. An order's amount
 * is its yuan price at the order's rate, rounded up to the hundredth of a
 * USDT, plus an offset of 0.01-0.99 USDT chosen so that no two open orders of
 * a network share an amount: the transfer's amount says which order it pays.
 */

/** Units in 0.01 USDT, the step of the offsets. */
export const USDT_UNITS_PER_CENT = 10_000n;
/** Offsets 0.01 .. 0.99 USDT. */
export const USDT_OFFSET_COUNT = 99;

const MICRO = 1_000_000n;

/** Micro-yuan per USDT of a rate written as a decimal ("7.2", "7.20", "6.987654"), or null when it is not a positive one with at most 6 decimals. */
export function parseUsdtRate(text: string): bigint | null {
  const match = /^(\d{1,6})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return null;
  const micro = BigInt(match[1]) * MICRO + BigInt((match[2] ?? '').padEnd(6, '0'));
  return micro > 0n ? micro : null;
}

/** The units of `priceFen` yuan at `rateMicro` micro-yuan per USDT, rounded up to the hundredth of a USDT. */
export function usdtBaseUnits(priceFen: number, rateMicro: bigint): bigint {
  if (!Number.isSafeInteger(priceFen) || priceFen <= 0)
    throw new RangeError(`price must be a positive integer of fen, got ${priceFen}`);
  if (rateMicro <= 0n) throw new RangeError('rate must be positive');
  // yuan / rate = (fen / 100) / (micro / 10^6) USDT = fen * 10^6 / micro hundredths.
  const cents = (BigInt(priceFen) * MICRO + rateMicro - 1n) / rateMicro;
  return cents * USDT_UNITS_PER_CENT;
}

/** The amounts an order of base `base` may take, base + 0.01 .. base + 0.99 USDT, in a random order. */
export function usdtCandidateUnits(base: bigint, random: () => number = Math.random): bigint[] {
  const offsets = Array.from({ length: USDT_OFFSET_COUNT }, (_, i) => BigInt(i + 1));
  for (let i = offsets.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [offsets[i], offsets[j]] = [offsets[j], offsets[i]];
  }
  return offsets.map((k) => base + k * USDT_UNITS_PER_CENT);
}
