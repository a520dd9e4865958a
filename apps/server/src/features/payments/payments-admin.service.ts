import type { TAdminPayOrder, TAdminPayOrderQuery, TLang, TPage, TReconcileOrderResult } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { findUserByEmail } from '../accounts/accounts.repository';
import { endPendingOrder, findOrder, findOrderCustomer, type TPayOrderRow } from './payments.repository';
import { listOrdersForOperators, settlePayment, toPayOrder } from './payments.service';
import { NotificationRefusal, type TProviderOrderState } from './providers/provider';

/**
 * Operators' order calls beyond the list and the reversal: the customer
 * filter by e-mail, and the reconciliation of one pending order with its
 * provider (through the one settlement path of payments.service).
 */

/** GET /admin/payments/orders with the customer given by e-mail too (an unknown address, or one that is not user_id's, finds nothing). */
export async function listOrdersByCustomer(deps: Pick<TDeps, 'db'>, query: TAdminPayOrderQuery, lang: TLang): Promise<TPage<TAdminPayOrder>> {
  if (!query.user_email) return listOrdersForOperators(deps, query, lang);
  const customer = await findUserByEmail(deps.db, query.user_email);
  if (!customer || (query.user_id !== undefined && query.user_id !== customer.id)) {
    return { records: [], total: 0, page: query.page, page_size: query.page_size };
  }
  return listOrdersForOperators(deps, { ...query, user_id: customer.id }, lang);
}

async function toAdminOrder(deps: Pick<TDeps, 'db'>, row: TPayOrderRow, lang: TLang): Promise<TAdminPayOrder> {
  const customer = await findOrderCustomer(deps.db, row.userId);
  return { ...toPayOrder(row, lang), user_id: row.userId, user_email: customer?.email ?? '' };
}

/**
 * POST /admin/payments/orders/:order_id/reconcile: asks the order's provider
 * about it. Paid: settled by settlePayment (the ledger credit's key is the
 * provider's transaction, so a notification or the job settling it too moves
 * the money once). Closed unpaid: the order ends as failed. Unpaid: nothing
 * changes. Only a pending order is asked about.
 */
export async function reconcileOrder(deps: TDeps, orderId: string, lang: TLang): Promise<TReconcileOrderResult> {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw new AppError('NOT_FOUND');
  if (order.status !== 'pending') throw new AppError('ORDER_NOT_RECONCILABLE');
  const provider = deps.payProviders.get(order.method);
  if (!provider) throw new AppError('PAY_METHOD_UNAVAILABLE');
  let state: TProviderOrderState;
  try {
    state = await provider.query(order.id);
  } catch (error) {
    deps.log.warn({ err: error, orderId: order.id }, 'payment provider query failed');
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  let result: TReconcileOrderResult['result'] = 'unchanged';
  if (state.state === 'paid') {
    try {
      const settled = await settlePayment(deps, order.method, {
        orderId: order.id,
        providerTxId: state.providerTxId,
        paidFen: state.paidFen,
        outcome: 'success',
      });
      result = settled === 'credited' ? 'credited' : 'settled';
    } catch (error) {
      if (!(error instanceof NotificationRefusal)) throw error;
      deps.log.warn({ orderId: order.id, reason: error.reason }, 'reconciliation refused the provider answer');
      throw new AppError('ORDER_RECONCILE_REFUSED', { reason: error.reason.slice(0, 200) });
    }
  } else if (state.state === 'closed') {
    result = (await endPendingOrder(deps.db, order.id, 'failure')) ? 'closed' : 'settled';
  }
  const after = (await findOrder(deps.db, order.id)) ?? order;
  return { order: await toAdminOrder(deps, after, lang), provider_state: state.state, result };
}
