import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { loadPriceCatalogue } from './pricing.service';

/** GET /token/prices: the catalogue the purchase code charges, so the console shows the same numbers. */
export function createPricingHandlers(deps: TDeps): THandlersOf<'pricing'> {
  return {
    tokenPrices: async () => loadPriceCatalogue(deps.db),
  };
}
