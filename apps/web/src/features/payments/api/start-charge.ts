import { useMutation } from '@tanstack/react-query';
import type { TPayMethod, TPayMode } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { amountText } from '../utils/amount';
import { CHARGE_OPTIONS_QUERY_KEY } from './charge-options';
import { orderOfCharge, storePayOrder } from './pay-order';
import { refreshPayRecords } from './pay-records';

/** A recharge to start: method, amount in fen and, where the method offers several, the mode. */
export type TChargeRequest = { method: TPayMethod; amountFen: number; mode?: TPayMode };

/** Starts a recharge (POST /pay/charge/{method}/{amount}): the order and how to pay it; failures say "the payment could not be started". */
export function startCharge(request: TChargeRequest) {
  const input = {
    method: request.method,
    amount: amountText(request.amountFen),
    ...(request.mode ? { mode: request.mode } : {}),
  };
  return callApi('payCharge', input, { failureMessage: translate('payments:errors.payFailed') });
}

/** Mutation of the pay button; the new order is remembered for its live status and shows in the bills. A refusal reloads the options (a method may have been turned off). */
export function useStartCharge() {
  return useMutation({
    mutationFn: startCharge,
    onSuccess: (charge) => {
      storePayOrder(orderOfCharge(charge));
      void refreshPayRecords();
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: CHARGE_OPTIONS_QUERY_KEY }),
  });
}
