import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listOrdersByCustomer, reconcileOrder, reverseRecharge } from './payments-admin.service';
import { assignTransfer, listUnmatched } from './usdt-watcher.service';

/** Operators' calls on payments (contract: PAY_ADMIN_ROUTES). */
export function createPaymentAdminHandlers(deps: TDeps): THandlersOf<'payments-admin'> {
  return {
    adminPayOrderList: ({ input, lang }) => listOrdersByCustomer(deps, input, lang),
    adminPayReconcile: ({ input, lang }) => reconcileOrder(deps, input.order_id, lang),
    adminPayReverse: ({ input, lang }) => reverseRecharge(deps, input.order_id, input.reason, lang),
    adminPayUnmatchedList: async ({ input }) => listUnmatched(deps, input),
    adminPayAssignTransfer: ({ input, user }) => assignTransfer(deps, user.id, input.id, input),
  };
}
