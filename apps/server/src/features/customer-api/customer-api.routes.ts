import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listCities, listCountries, listStates } from '../areas/areas.service';
import { getDomainUsage } from '../usage/usage-domains.service';
import { getSessionHolds } from '../usage/usage-sessions.service';
import { getV1Endpoints, listV1Proxies, resetApiKey } from './customer-api.service';

/** The customer API under /api/v1 (API key or bearer) and the key reset (bearer only). */
export function createCustomerApiHandlers(deps: TDeps): THandlersOf<'customer-api'> {
  return {
    v1AreaCountries: async ({ input, lang }) => listCountries(deps, input.category, lang, input),
    v1AreaStates: async ({ input, lang }) => listStates(deps, input.category, input.countryId, lang, input),
    v1AreaCities: async ({ input, lang }) =>
      listCities(deps, input.category, input.countryId, input.stateId, lang, input),
    v1Proxies: async ({ input, user, lang }) => listV1Proxies(deps, user.id, input, lang),
    v1Endpoints: async ({ input, user }) => getV1Endpoints(deps, user.id, input),
    v1UsageDomains: async ({ input, user }) =>
      getDomainUsage(deps, user.id, { token_id: input.proxyId, from: input.from, to: input.to }),
    v1ProxySessions: async ({ input, user, lang }) =>
      getSessionHolds(deps, user.id, { token_id: input.proxyId, page: input.page, page_size: input.pageSize }, lang),
    // Bearer only (auth "user"): a leaked key cannot replace itself and lock its owner out.
    userApiKeyReset: async ({ user }) => resetApiKey(deps, user.id),
  };
}
