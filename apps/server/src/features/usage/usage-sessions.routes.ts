import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { getSessionHolds } from './usage-sessions.service';

/** GET /token/session/holds: a proxy's session hold report (the customer API's is in customer-api). */
export function createUsageSessionsHandlers(deps: TDeps): THandlersOf<'usage-sessions'> {
  return {
    tokenSessionHolds: async ({ input, user, lang }) => getSessionHolds(deps, user.id, input, lang),
  };
}
