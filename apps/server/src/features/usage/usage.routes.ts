import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { getSessionTraffic, getStatisticsAmount } from './usage.service';

/** GET /token/session/traffic and GET /user/statistics/amount: the dashboard's series. */
export function createUsageHandlers(deps: TDeps): THandlersOf<'usage'> {
  return {
    tokenSessionTraffic: async ({ input, user }) => getSessionTraffic(deps, user.id, input),
    userStatisticsAmount: async ({ input, user }) => getStatisticsAmount(deps, user.id, input),
  };
}
