import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import { listChargeOptions, startCharge } from './payments-charge.service';
import { checkOrderPayment, type TReferToOperator } from './payments-check.service';
import { cancelOrder, exportOrders, getOrder, listOrders, listStatement } from './payments-orders.service';

/** Top-up, bills and the statement (contract: PAY_ROUTES); `referToOperator` opens the work order of a payment found but not credited. */
export function createPaymentHandlers(
  deps: TDeps,
  services: { referToOperator: TReferToOperator },
): THandlersOf<'payments'> {
  return {
    payOptionList: async () => listChargeOptions(deps),
    payCharge: async ({ user, input, lang }) => startCharge(deps, user.id, input, lang),
    payRecordList: async ({ user, input, lang }) => listOrders(deps, user.id, input, lang),
    payRecordExport: async ({ user, input, lang }) => exportOrders(deps, user.id, input, lang),
    payOrder: async ({ user, input, lang }) => getOrder(deps, user.id, input.order_id, lang),
    payCancel: async ({ user, input, lang }) => cancelOrder(deps, user.id, input.order_id, lang),
    payCheck: async ({ user, input, lang, reply }) =>
      withRetryAfter(reply, () => checkOrderPayment(deps, services.referToOperator, user, input.order_id, lang)),
    payLedgerList: async ({ user, input }) => listStatement(deps, user.id, input),
  };
}
