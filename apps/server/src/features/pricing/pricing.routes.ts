import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { createPriceVersions, listAdminPrices, listPriceHistory, loadPriceCatalogue } from './pricing.service';

/** GET /token/prices: the catalogue the purchase code charges, so the console shows the same numbers. */
export function createPricingHandlers(deps: TDeps): THandlersOf<'pricing'> {
  return {
    tokenPrices: async () => loadPriceCatalogue(deps.db, deps.clock.now()),
  };
}

/** Operators' price catalogue (contract: PRICING_ADMIN_ROUTES). */
export function createPricingAdminHandlers(deps: TDeps): THandlersOf<'pricing-admin'> {
  return {
    adminPriceList: async () => listAdminPrices(deps),
    adminPriceHistory: async ({ input }) => listPriceHistory(deps, input),
    adminPriceCreate: async ({ input, user }) => createPriceVersions(deps, user, input),
  };
}
