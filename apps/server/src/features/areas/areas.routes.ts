import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listCities, listCountries, listStates } from './areas.service';
import { readFairUseGbPerDay } from './fair-use';

/**
 * GET /token/list/area/countries, /state and /city: areas with inventory and available counts (and, for a product
 * asked, pool-served ones); GET /token/fair-use: the traffic an IP-billed dynamic proxy bought now includes per day.
 */
export function createAreaHandlers(deps: TDeps): THandlersOf<'areas'> {
  return {
    tokenAreaCountries: async ({ input, lang }) => listCountries(deps, input.category, lang, input),
    tokenAreaStates: async ({ input, lang }) => listStates(deps, input.category, input.country_id, lang, input),
    tokenAreaCities: async ({ input, lang }) =>
      listCities(deps, input.category, input.country_id, input.state_id, lang, input),
    tokenFairUse: async () => ({ ip_dynamic_gb_per_day: await readFairUseGbPerDay(deps.db) }),
  };
}
