import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listUnmatched } from './usdt-watcher.service';

/** Operators' calls on payments (contract: PAY_ADMIN_ROUTES). */
export function createPaymentAdminHandlers(deps: TDeps): THandlersOf<'payments-admin'> {
  return {
    adminPayUnmatchedList: async ({ input }) => listUnmatched(deps, input),
  };
}
