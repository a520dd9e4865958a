import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { listChargeOptions, startCharge } from './payments-charge.service';
import { cancelOrder, exportOrders, getOrder, listOrders, listStatement } from './payments-orders.service';

/** Top-up, bills and the statement (contract: PAY_ROUTES). */
export function createPaymentHandlers(deps: TDeps): THandlersOf<'payments'> {
  return {
    payOptionList: async () => listChargeOptions(deps),
    payCharge: async ({ user, input, lang }) => startCharge(deps, user.id, input, lang),
    payRecordList: async ({ user, input, lang }) => listOrders(deps, user.id, input, lang),
    payRecordExport: async ({ user, input, lang }) => exportOrders(deps, user.id, input, lang),
    payOrder: async ({ user, input, lang }) => getOrder(deps, user.id, input.order_id, lang),
    payCancel: async ({ user, input, lang }) => cancelOrder(deps, user.id, input.order_id, lang),
    payLedgerList: async ({ user, input }) => listStatement(deps, user.id, input),
  };
}
