import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshWorkOrders } from './work-order-list';

/** The customer's reply in a work order (POST /user/work/order/reply/{id}). */
export function replyToWorkOrder(input: TRouteRequest<'workOrderReply'>) {
  return callApi('workOrderReply', input, { failureMessage: translate('work-orders:reply.failed') });
}

/** Mutation of the reply form; the conversation and the list reload afterwards. */
export function useReplyToWorkOrder() {
  return useMutation({ mutationFn: replyToWorkOrder, onSuccess: refreshWorkOrders });
}
