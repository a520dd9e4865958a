import { PAY_METHODS, formatFen, formatUsdtUnits, type TPayMethod } from '@proxy/contract';
import type { TTx } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { uniqueViolationOf } from '../../lib/database-errors';
import { faultPoint } from '../../lib/fault-points';
import { createPendingRebate } from '../invite/invite.service';
import { createLedgerService } from '../ledger/ledger.service';
import { renderRechargeMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import {
  addTotalRecharge,
  endPendingOrder,
  findOrderCustomer,
  findOrderPaidBy,
  listStalePending,
  lockOrder,
  logNotification,
  updateOrder,
  type TPayOrderRow,
} from './payments.repository';
import { NotificationRefusal, type TPayProvider } from './providers';
import type { TIncomingNotification, TNotificationAnswer, TVerifiedNotification } from './providers/provider';
import { emitRechargeWebhook } from '../webhooks/webhooks.service';

/**
 * Money in (ARCHITECTURE.md, Money): recharge orders through a provider, and
 * their settlement. Credit moves only through the ledger, keyed by (provider,
 * provider transaction), in the one transaction that moves the order out of
 * pending, so a notification replayed any number of times, concurrently or
 * across API instances, credits once. Money received is never dropped: a
 * payment for an order that timed out or was cancelled is credited all the same.
 */

/** What the payment services need. */
export type TPayDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'payProviders'>;
/** What a settlement needs (the e-mail after a credit). */
export type TSettleDeps = TPayDeps & Pick<TDeps, 'mailer' | 'log'>;

/** What a settlement did. */
export type TSettlement = 'credited' | 'replay' | 'failed';

/** A settlement and the order it touched (the e-mail after the commit needs it). */
export type TSettled = { result: TSettlement; order: TPayOrderRow; balanceFen?: number };

function reusedTransaction(providerTxId: string, paidOrderId: string): NotificationRefusal {
  return new NotificationRefusal(`transaction ${providerTxId} already paid order ${paidOrderId}`);
}

/**
 * Applies a genuine payment to its order inside the caller's transaction,
 * exactly once: the one settlement path of every provider (notifications,
 * reconciliation, the USDT watchers). Throws NotificationRefusal when it does
 * not match the order. The caller announces a credit after its commit.
 */
export async function settleInTransaction(
  deps: TSettleDeps,
  tx: TTx,
  method: TPayMethod,
  paid: TVerifiedNotification,
): Promise<TSettled> {
  const order = await lockOrder(tx, paid.orderId);
  if (!order || order.method !== method) throw new NotificationRefusal(`unknown order ${paid.orderId}`);
  if (paid.outcome === 'ignore') return { result: 'replay', order };
  if (order.cryptoAmountUnits !== null) {
    // A USDT order is paid by its exact amount of USDT, whatever that is worth in yuan today.
    if (paid.paidUnits === undefined || paid.paidUnits !== BigInt(order.cryptoAmountUnits)) {
      throw new NotificationRefusal(
        `paid ${paid.paidUnits === undefined ? 'no' : formatUsdtUnits(paid.paidUnits)} USDT, the order asks ${formatUsdtUnits(order.cryptoAmountUnits)}`,
      );
    }
  } else if (paid.paidFen !== order.priceFen)
    throw new NotificationRefusal(`paid ${paid.paidFen} fen, the order's price is ${order.priceFen}`);
  if (paid.outcome === 'failure') {
    const failed = order.status === 'pending' ? await endPendingOrder(tx, order.id, 'failure') : undefined;
    return { result: failed ? 'failed' : 'replay', order };
  }
  if (order.status === 'success') {
    if (order.providerTxId !== paid.providerTxId)
      throw new NotificationRefusal(`order already paid by transaction ${order.providerTxId}`);
    return { result: 'replay', order };
  }
  // One provider transaction pays one order: a transaction reused for another order is refused, nothing moves.
  const paidBefore = await findOrderPaidBy(tx, method, paid.providerTxId);
  if (paidBefore) throw reusedTransaction(paid.providerTxId, paidBefore.id);
  const credit = await createLedgerService(deps).credit(
    {
      userId: order.userId,
      amountFen: order.valueFen,
      reason: 'recharge',
      reference: order.id,
      idempotencyKey: `pay:${method}:${paid.providerTxId}`,
    },
    tx,
  );
  await faultPoint('settle.credited', tx);
  // Late: paid after the order's time (a chain says when), or after it ended unpaid.
  const isPaidLate = paid.paidAt
    ? paid.paidAt.getTime() > order.expiresAt.getTime() || order.status === 'cancelled' || order.status === 'failure'
    : order.status !== 'pending';
  const settled = await updateOrder(tx, order.id, {
    status: 'success',
    providerTxId: paid.providerTxId,
    paidAt: deps.clock.now(),
    isPaidLate,
  });
  await addTotalRecharge(tx, order.userId, order.amountFen);
  // A debt left by a reversed recharge is paid first.
  const debtPaidFen = await createLedgerService(deps).settleDebt(tx, order.userId, order.id);
  await createPendingRebate(deps, tx, order);
  await writeNotification(deps, order.userId, 'recharge_success', tx);
  await emitRechargeWebhook(tx, order);
  return { result: 'credited', order: settled, balanceFen: credit.availableFen - debtPaidFen };
}

/** After the commit of a credit: the customer's e-mail. */
export async function announceSettlement(deps: TSettleDeps, settled: TSettled): Promise<void> {
  if (settled.result !== 'credited') return;
  const customer = await findOrderCustomer(deps.db, settled.order.userId);
  if (!customer) return;
  await sendMailQuietly(
    deps,
    customer.email,
    renderRechargeMail({
      username: customer.username,
      orderId: settled.order.id,
      amount: formatFen(settled.order.amountFen),
      value: formatFen(settled.order.valueFen),
      balance: formatFen(settled.balanceFen ?? 0),
      publicUrl: deps.config.publicUrl,
    }),
  );
}

/**
 * Applies a genuine notification (or a reconciliation's answer) to its order,
 * exactly once. Throws NotificationRefusal when it does not match the order.
 */
export async function settlePayment(
  deps: TSettleDeps,
  method: TPayMethod,
  paid: TVerifiedNotification,
): Promise<TSettlement> {
  let settled: TSettled;
  try {
    settled = await deps.db.transaction((tx) => settleInTransaction(deps, tx, method, paid));
  } catch (error) {
    // Two orders settled by one transaction at once: the second commit meets the first's key and rolls back.
    if (uniqueViolationOf(error) !== 'pay_orders_provider_tx_key') throw error;
    const paidBefore = await findOrderPaidBy(deps.db, method, paid.providerTxId);
    throw reusedTransaction(paid.providerTxId, paidBefore?.id ?? 'another order');
  }
  await announceSettlement(deps, settled);
  return settled.result;
}

/**
 * A provider's notification: verified, settled, logged, answered the way the
 * provider expects. A refusal is logged with its reason and answered as one
 * (the provider resends; nothing is credited). Other failures (the database)
 * throw, so the provider resends later.
 */
export async function receiveNotification(
  deps: TSettleDeps & Partial<Pick<TDeps, 'metrics'>>,
  method: string,
  incoming: TIncomingNotification,
  ip: string,
): Promise<TNotificationAnswer | null> {
  if (!(PAY_METHODS as readonly string[]).includes(method)) return null;
  const provider = deps.payProviders.get(method as TPayMethod);
  if (!provider) return null;
  let orderId: string | null = null;
  try {
    const paid = await provider.verify(incoming);
    orderId = paid.orderId;
    const result = await settlePayment(deps, provider.method, paid);
    await logNotification(deps.db, { method: provider.method, orderId, result, ip });
    deps.metrics?.paymentNotification(provider.method, result);
    return provider.answers.ok;
  } catch (error) {
    if (!(error instanceof NotificationRefusal)) {
      deps.metrics?.paymentNotification(provider.method, 'error');
      throw error;
    }
    deps.metrics?.paymentNotification(provider.method, 'refused');
    deps.log.warn({ method: provider.method, orderId, reason: error.reason, ip }, 'payment notification refused');
    await logNotification(deps.db, {
      method: provider.method,
      orderId,
      result: 'refused',
      reason: error.reason.slice(0, 500),
      ip,
    });
    return provider.answers.refused;
  }
}

// A provider that cannot be asked for this long after an order's end: the order times out all the same.
const QUERY_GIVE_UP_MS = 24 * 3_600_000;

/**
 * The reconciliation job: pending orders past their time are asked about at
 * their provider first; paid ones are settled, the rest time out. Answers how
 * many orders it looked at.
 */
export async function reconcileStaleOrders(deps: TSettleDeps, limit = 50): Promise<number> {
  const now = deps.clock.now();
  const stale = await listStalePending(deps.db, now, limit);
  let looked = 0;
  for (const order of stale) {
    const provider = deps.payProviders.get(order.method);
    let state: Awaited<ReturnType<TPayProvider['query']>> = { state: 'unpaid' };
    if (provider) {
      try {
        state = await provider.query(order.id);
      } catch (error) {
        deps.log.warn({ err: error, orderId: order.id }, 'payment provider query failed');
        if (now.getTime() - order.expiresAt.getTime() < QUERY_GIVE_UP_MS) continue;
      }
    }
    looked += 1;
    if (state.state === 'paid') {
      try {
        await settlePayment(deps, order.method, {
          orderId: order.id,
          providerTxId: state.providerTxId,
          paidFen: state.paidFen,
          outcome: 'success',
        });
      } catch (error) {
        if (!(error instanceof NotificationRefusal)) throw error;
        deps.log.warn({ orderId: order.id, reason: error.reason }, 'reconciliation refused the provider answer');
        await endPendingOrder(deps.db, order.id, 'timeout');
      }
    } else {
      await endPendingOrder(deps.db, order.id, 'timeout');
    }
  }
  return looked;
}
