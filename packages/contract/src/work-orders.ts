import { defineRoute, zPending, type TRouteDef } from './route-def';
import { zIdParam } from './validators';

/** Work orders (tickets). */
export const WORK_ORDER_ROUTES = {
  workOrderList: defineRoute({ method: 'GET', path: '/user/work/order/list', auth: 'user', summary: 'Work orders', tag: 'support', input: zPending }),
  workOrderCreate: defineRoute({ method: 'POST', path: '/user/work/order', auth: 'user', summary: 'Open a work order', tag: 'support', input: zPending }),
  workOrderCancel: defineRoute({
    method: 'POST',
    path: '/user/work/order/cancel/:id',
    auth: 'user',
    summary: 'Cancel a work order',
    tag: 'support',
    input: zIdParam,
  }),
} as const satisfies Record<string, TRouteDef>;
