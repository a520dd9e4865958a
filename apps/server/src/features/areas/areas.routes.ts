import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listCities, listCountries, listStates } from './areas.service';

/** GET /token/list/area/countries, /state and /city: areas with inventory and available counts (and, for a product asked, pool-served ones). */
export function createAreaHandlers(deps: TDeps): THandlersOf<'areas'> {
  return {
    tokenAreaCountries: async ({ input, lang }) => listCountries(deps, input.category, lang, input),
    tokenAreaStates: async ({ input, lang }) => listStates(deps, input.category, input.country_id, lang, input),
    tokenAreaCities: async ({ input, lang }) =>
      listCities(deps, input.category, input.country_id, input.state_id, lang, input),
  };
}
