import {
  fenToYuan,
  type TAdminPayOrder,
  type TAdminPayOrderQuery,
  type TLang,
  type TPage,
  type TReconcileOrderResult,
  type TReverseOrderResult,
} from '@proxy/contract';
import { noteAuditEffect } from '../audit/audit.service';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { faultPoint } from '../../lib/fault-points';
import { findUserByEmail } from '../accounts/accounts.repository';
import { reverseRebateOfOrder } from '../invite/invite.service';
import { createLedgerService } from '../ledger/ledger.service';
import { toPayOrder } from './payments-orders.service';
import { settlePayment } from './payments-settle.service';
import {
  addTotalRecharge,
  endPendingOrder,
  findOrder,
  findOrderCustomer,
  listOrdersWithCustomer,
  lockOrder,
  updateOrder,
  type TPayOrderRow,
} from './payments.repository';
import { NotificationRefusal, type TProviderOrderState } from './providers/provider';

/**
 * Operators' order calls: the list (of every customer, or of one by id or
 * e-mail), the reconciliation of one pending order with its provider
 * (through the one settlement path of payments-settle.service) and the
 * reversal of a recharge.
 */

/** GET /admin/payments/orders: every customer's orders (or one's), with whose they are. */
export async function listOrdersForOperators(
  deps: Pick<TDeps, 'db'>,
  query: TAdminPayOrderQuery,
  lang: TLang,
): Promise<TPage<TAdminPayOrder>> {
  const filters = {
    status: query.status,
    method: query.method,
    orderId: query.order_id,
    from: query.from,
    to: query.to,
  };
  const { records, total } = await listOrdersWithCustomer(
    deps.db,
    query.user_id,
    filters,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    records: records.map((row) => ({ ...toPayOrder(row, lang), user_id: row.userId, user_email: row.userEmail })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** GET /admin/payments/orders with the customer given by e-mail too (an unknown address, or one that is not user_id's, finds nothing). */
export async function listOrdersByCustomer(
  deps: Pick<TDeps, 'db'>,
  query: TAdminPayOrderQuery,
  lang: TLang,
): Promise<TPage<TAdminPayOrder>> {
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
    noteAuditEffect('provider', 'unreachable');
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  // What the provider answered goes into the audit entry, written in the transaction that settles or closes the order.
  noteAuditEffect('provider', state.state);
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
    const isClosed = await deps.db.transaction((tx) => endPendingOrder(tx, order.id, 'failure'));
    result = isClosed ? 'closed' : 'settled';
  }
  const after = (await findOrder(deps.db, order.id)) ?? order;
  return { order: await toAdminOrder(deps, after, lang), provider_state: state.state, result };
}

/**
 * POST /admin/payments/orders/:order_id/reverse (a refund made outside,
 * recorded here), in one transaction under the order's lock: the value the
 * balance received is debited as far as the available balance goes and the
 * rest becomes debt (the next top-up settles it first), total recharge drops
 * by the order's amount (the role follows), and the order's rebate is
 * cancelled or taken back. A second reversal is refused.
 */
export async function reverseRecharge(
  deps: Pick<TDeps, 'db' | 'clock'>,
  orderId: string,
  reason: string,
  lang: TLang,
): Promise<TReverseOrderResult> {
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new AppError('NOT_FOUND');
    if (order.status !== 'success' || order.reversedAt !== null) throw new AppError('ORDER_NOT_REVERSIBLE');
    const taken = await createLedgerService(deps).takeBackOrOwe(
      tx,
      order.userId,
      order.valueFen,
      `reverse:${order.id}`,
      order.id,
    );
    await faultPoint('reversal.debited', tx);
    await addTotalRecharge(tx, order.userId, -order.amountFen);
    const reversed = await updateOrder(tx, order.id, {
      reversedAt: deps.clock.now(),
      reversalNote: reason,
      reversedFen: taken.debitedFen,
      reversalDebtFen: taken.debtFen,
    });
    const rebate = await reverseRebateOfOrder(deps, order.id, tx);
    const customer = await findOrderCustomer(tx, order.userId);
    return {
      order: { ...toPayOrder(reversed, lang), user_id: order.userId, user_email: customer?.email ?? '' },
      taken_back: fenToYuan(taken.debitedFen),
      debt: fenToYuan(taken.debtFen),
      rebate: rebate.outcome,
    };
  });
}
