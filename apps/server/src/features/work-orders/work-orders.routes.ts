import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import {
  cancelWorkOrder,
  closeWorkOrder,
  createWorkOrder,
  getWorkOrder,
  getWorkOrderForOperator,
  listQueue,
  listWorkOrders,
  readAttachment,
  replyAsCustomer,
  replyAsOperator,
  uploadAttachment,
} from './work-orders.service';

/** The customer's work orders: list, open, cancel, conversation, replies and image attachments. */
export function createWorkOrderHandlers(deps: TDeps): THandlersOf<'work-orders'> {
  return {
    async workOrderList({ input, user }) {
      return listWorkOrders(deps, user.id, input);
    },
    async workOrderCreate({ input, user }) {
      return createWorkOrder(deps, user, input);
    },
    async workOrderCancel({ input, user }) {
      return cancelWorkOrder(deps, user.id, input.id);
    },
    async workOrderDetail({ input, user }) {
      return getWorkOrder(deps, user.id, input.id);
    },
    async workOrderReply({ input, user }) {
      return replyAsCustomer(deps, user.id, input);
    },
    async workOrderAttachmentUpload({ input, user }) {
      return uploadAttachment(deps, user.id, input.file);
    },
    async workOrderAttachmentFile({ input, user }) {
      return readAttachment(deps, user, input.id);
    },
  };
}

/** The operators' work-order queue: list, conversation, reply, close. */
export function createWorkOrderAdminHandlers(deps: TDeps): THandlersOf<'work-orders-admin'> {
  return {
    async adminWorkOrderList({ input }) {
      return listQueue(deps, input);
    },
    async adminWorkOrderDetail({ input }) {
      return getWorkOrderForOperator(deps, input.id);
    },
    async adminWorkOrderReply({ input, user }) {
      return replyAsOperator(deps, user.id, input);
    },
    async adminWorkOrderClose({ input }) {
      return closeWorkOrder(deps, input.id);
    },
  };
}
