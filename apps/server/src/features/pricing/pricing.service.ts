import { DEFAULT_PRICE_CATALOGUE, PRICE_KEYS, type TPriceCatalogue, type TPriceKey } from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { insertMissingPrices, listPriceRows } from './pricing.repository';

const KNOWN_KEYS = new Set<string>(PRICE_KEYS);

/** Seeds the list prices of the contract into price_catalogue (idempotent; edited prices are kept). */
export async function seedPriceCatalogue(deps: Pick<TDeps, 'db' | 'clock'>): Promise<number> {
  const rows = PRICE_KEYS.map((key) => ({ key, amountFen: DEFAULT_PRICE_CATALOGUE[key] }));
  return insertMissingPrices(deps.db, rows, deps.clock.now());
}

/** The catalogue the purchase code charges: stored prices, with the defaults for any key not stored. */
export async function loadPriceCatalogue(db: TDbOrTx): Promise<TPriceCatalogue> {
  const catalogue: TPriceCatalogue = { ...DEFAULT_PRICE_CATALOGUE };
  for (const row of await listPriceRows(db)) {
    if (KNOWN_KEYS.has(row.key) && Number.isSafeInteger(row.amountFen) && row.amountFen >= 0) {
      catalogue[row.key as TPriceKey] = row.amountFen;
    }
  }
  return catalogue;
}
