import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { getOverview } from './overview.service';

/** The operator area's overview (contract: OVERVIEW_ADMIN_ROUTES). */
export function createOverviewAdminHandlers(deps: TDeps): THandlersOf<'overview-admin'> {
  return {
    adminOverview: ({ input }) => getOverview(deps, input),
  };
}
