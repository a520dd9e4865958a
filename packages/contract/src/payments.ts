import { defineRoute, zPending, type TRouteDef } from './route-def';

/** Top-up and bills. */
export const PAY_ROUTES = {
  payOptionList: defineRoute({ method: 'GET', path: '/pay/option/list', auth: 'user', summary: 'Recharge options', tag: 'pay', input: zPending }),
  payRecordList: defineRoute({ method: 'GET', path: '/pay/record/list', auth: 'user', summary: 'Recharge orders and bills', tag: 'pay', input: zPending }),
  payCharge: defineRoute({ method: 'POST', path: '/pay/charge/:method/:option', auth: 'user', summary: 'Start a recharge', tag: 'pay', input: zPending }),
} as const satisfies Record<string, TRouteDef>;
