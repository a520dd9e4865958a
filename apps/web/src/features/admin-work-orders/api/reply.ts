import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshQueue } from './queue';

/** An operator's reply (POST /admin/work-orders/reply/{id}): the customer is notified and e-mailed. */
export function replyAsOperator(input: { id: number; content: string }) {
  return callApi('adminWorkOrderReply', input, { failureMessage: translate('admin-work-orders:reply.failed') });
}

/** Mutation of the reply form; the queue and the conversation reload afterwards. */
export function useOperatorReply() {
  return useMutation({ mutationFn: replyAsOperator, onSuccess: refreshQueue });
}
