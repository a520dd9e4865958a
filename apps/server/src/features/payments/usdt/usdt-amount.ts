/**
 * USDT amounts of orders, in integer units of 10^-6 USDT. An order's amount
 * is its yuan price at the order's rate, rounded up to the hundredth of a
 * USDT, plus an offset below 1 USDT chosen so that no two open orders of a
 * network share an amount: the transfer's amount says which order it pays.
 * The offsets are whole hundredths (0.01-0.99) first, what every wallet and
 * exchange can send; only when all 99 are held, thousandths (0.001-0.999, 900
 * more). 999 in all, and an account holds at most USDT_MAX_UNPAID_PER_ACCOUNT
 * of them per network, so exhausting one amount takes 333 accounts.
 */

/** Units in 0.01 USDT, the step of the offsets. */
export const USDT_UNITS_PER_CENT = 10_000n;
/** Units in 0.001 USDT, the step of the second band of offsets. */
export const USDT_UNITS_PER_MILLI = 1_000n;
/** Offsets 0.01 .. 0.99 USDT, then the 900 other thousandths of 0.001 .. 0.999. */
export const USDT_OFFSET_COUNT = 999;

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

function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * The amounts an order of base `base` may take, in the order to try them:
 * base + 0.01 .. base + 0.99 USDT in a random order, then the other
 * thousandths base + 0.001 .. base + 0.999 in a random order.
 */
export function usdtCandidateUnits(base: bigint, random: () => number = Math.random): bigint[] {
  const cents = Array.from({ length: 99 }, (_, i) => BigInt(i + 1) * USDT_UNITS_PER_CENT);
  const millis = Array.from({ length: 999 }, (_, i) => BigInt(i + 1))
    .filter((k) => k % 10n !== 0n)
    .map((k) => k * USDT_UNITS_PER_MILLI);
  return [...shuffled(cents, random), ...shuffled(millis, random)].map((offset) => base + offset);
}
