import type { TDeps } from '../../lib/deps';
import type { THandlers } from '../../lib/routing';
import { loadPriceCatalogue } from './pricing.service';

/** GET /token/prices: the catalogue the purchase code charges, so the console shows the same numbers. */
export function createPricingHandlers(deps: TDeps): THandlers {
  return {
    tokenPrices: async () => loadPriceCatalogue(deps.db),
  };
}
