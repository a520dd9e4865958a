import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshWorkOrders } from './work-order-list';

/** Opens a work order (POST /user/work/order); a failure says "failed to submit the work order" with the reason. */
export function createWorkOrder(input: TRouteRequest<'workOrderCreate'>) {
  return callApi('workOrderCreate', input, { failureMessage: translate('work-orders:create.failed') });
}

/** Mutation of the new-order form; the list reloads afterwards. */
export function useCreateWorkOrder() {
  return useMutation({ mutationFn: createWorkOrder, onSuccess: refreshWorkOrders });
}
