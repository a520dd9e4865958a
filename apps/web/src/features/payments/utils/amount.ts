import {
  parseYuanAmount,
  rechargeFeeFen,
  validationMessage,
  yuanToFen,
  type TChargeOption,
  type TLang,
} from '@proxy/contract';

/** The canonical text of an amount as the charge call takes it: "100", "100.50". */
export function amountText(fen: number): string {
  const whole = Math.floor(fen / 100);
  const cents = fen % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
}

/** What a recharge of one amount costs and brings, in fen. */
export type TChargeQuote = {
  amountFen: number;
  /** Gift of the option with exactly this amount (none for other amounts). */
  giftFen: number;
  /** 1% of the amount, rounded half up, plus 1 yuan (spec section 9). */
  feeFen: number;
  /** What the customer pays: amount + fee. */
  priceFen: number;
  /** What the balance receives: amount + gift. */
  valueFen: number;
};

/** The quote of a recharge: the gift applies when the amount equals an option's amount. */
export function quoteCharge(amountFen: number, options: readonly TChargeOption[]): TChargeQuote {
  const option = options.find((o) => yuanToFen(o.amount) === amountFen);
  const giftFen = option ? yuanToFen(option.gift) : 0;
  const feeFen = rechargeFeeFen(amountFen);
  return { amountFen, giftFen, feeFen, priceFen: amountFen + feeFen, valueFen: amountFen + giftFen };
}

/** The custom amount's bounds, in yuan (from the options answer). */
export type TAmountBounds = { min_amount: number; max_amount: number };

/** A custom amount as typed: its fen, or the catalogue's message (amountFormat, amountRange) in the interface language. */
export function checkCustomAmount(
  text: string,
  bounds: TAmountBounds,
  lang: TLang,
): { fen: number; error?: undefined } | { fen?: undefined; error: string } {
  const fen = parseYuanAmount(text.trim());
  if (fen === null) return { error: validationMessage('amountFormat', lang) };
  const minFen = yuanToFen(bounds.min_amount);
  const maxFen = yuanToFen(bounds.max_amount);
  if (fen < minFen || fen > maxFen)
    return { error: validationMessage('amountRange', lang, { min: amountText(minFen), max: amountText(maxFen) }) };
  return { fen };
}
