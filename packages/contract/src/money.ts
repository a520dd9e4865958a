/**
 * Money is kept in integer fen (0.01 CNY). API answers carry yuan numbers with
 * at most two decimals, computed from fen; the console formats them here.
 */

/** Fen in one yuan. */
export const FEN_PER_YUAN = 100;

/** Fen to a yuan number with at most two decimals (exact for integers of fen). */
export function fenToYuan(fen: number): number {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be a safe integer, got ${fen}`);
  return fen / FEN_PER_YUAN;
}

/** Yuan (number or decimal string with at most two decimals) to integer fen; throws on more precision. */
export function yuanToFen(yuan: number | string): number {
  const text = typeof yuan === 'number' ? yuan.toFixed(6) : yuan.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a yuan amount: ${yuan}`);
  const [, minus, whole, frac = ''] = match;
  if (/[1-9]/.test(frac.slice(2))) throw new RangeError(`more than two decimals: ${yuan}`);
  const fen = Number(whole) * FEN_PER_YUAN + Number(frac.slice(0, 2).padEnd(2, '0'));
  return minus ? -fen : fen;
}

/** Display form: "¥12.30" (or "12.30" without the symbol). */
export function formatFen(fen: number, options: { symbol?: boolean } = {}): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  const text = `${Math.floor(abs / FEN_PER_YUAN)}.${String(abs % FEN_PER_YUAN).padStart(2, '0')}`;
  return `${sign}${options.symbol === false ? '' : '¥'}${text}`;
}

/** Display form of a yuan number from the API. */
export function formatYuan(yuan: number, options: { symbol?: boolean } = {}): string {
  return formatFen(Math.round(yuan * FEN_PER_YUAN), options);
}
