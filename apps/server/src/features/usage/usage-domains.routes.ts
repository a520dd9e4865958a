import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { exportDomainUsage, getDomainUsage } from './usage-domains.service';

/** GET /token/session/domains and its CSV: the usage by target domain of a proxy or the whole account. */
export function createUsageDomainsHandlers(deps: TDeps): THandlersOf<'usage-domains'> {
  return {
    tokenSessionDomains: async ({ input, user }) => getDomainUsage(deps, user.id, input),
    tokenSessionDomainsExport: async ({ input, user }) => exportDomainUsage(deps, user.id, input),
  };
}
