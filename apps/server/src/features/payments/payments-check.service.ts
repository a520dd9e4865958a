import { formatFen, formatUsdtUnits, type TLang, type TPayCheckResult } from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import type { TUserRow } from '../accounts/accounts.repository';
import { paymentCheckSubject } from './payment-texts';
import { USDT_CLOCK_SKEW_MS } from './payments-charge.service';
import { toPayOrder } from './payments-orders.service';
import { settlePayment } from './payments-settle.service';
import { countAttempt, findOrder, findUserOrder, lockOrderReferral, type TPayOrderRow } from './payments.repository';
import { NotificationRefusal, type TPayProvider } from './providers';
import { usdtProviderOf, type TUsdtProvider } from './providers/usdt';
import type { TChainTransfer } from './usdt/chain';
import { recordUsdtTransfer } from './usdt-watcher.service';

/**
 * "I have paid" (POST /pay/check/{order_id}): the customer makes us ask the
 * provider about a pending or expired recharge order whose notification may
 * never have come. Alipay and WeChat Pay are asked with their order query; a
 * USDT order's chain is searched for final transfers of its exact amount to
 * our address from the order's time on. What is found is credited through the
 * one settlement path (settlePayment, or the USDT watcher's
 * recordUsdtTransfer): the ledger key of the provider's transaction, the
 * order's lock and pay_orders_provider_tx_key make one provider transaction
 * credit one order exactly once, whoever finds it first (a click, a
 * notification, the watcher, the reconciliation job). A payment that cannot
 * be credited automatically (a transfer of the amount outside the order's
 * hold window, an answer that does not match the order) opens one work order
 * for the operator with the evidence.
 */

/** Checks allowed per order and per account in CHECK_WINDOW_MS, counted in the database across instances. */
export const CHECKS_PER_ORDER = 5;
export const CHECKS_PER_ACCOUNT = 20;
export const CHECK_WINDOW_MS = 10 * 60_000;
/** How long after an order's hold window a USDT transfer of its amount is still looked for (then referred). */
export const USDT_CHECK_BEYOND_HOLD_MS = 24 * 3_600_000;

/**
 * Opens (or finds, when one about the order is still open) the customer's
 * work order about an order's payment, in the caller's transaction; answers
 * its id. The work-orders feature provides it (features/index.ts).
 */
export type TReferToOperator = (
  tx: TTx,
  user: TUserRow,
  referral: { orderId: string; subject: string; content: string },
) => Promise<number>;

type TFound = { result: TPayCheckResult['result']; workOrderId?: number };

async function limitChecks(deps: Pick<TDeps, 'db' | 'clock'>, userId: number, orderId: string): Promise<void> {
  const now = deps.clock.now();
  const perOrder = await countAttempt(deps.db, `pay-check:order:${orderId}`, CHECK_WINDOW_MS, now);
  const perAccount = await countAttempt(deps.db, `pay-check:user:${userId}`, CHECK_WINDOW_MS, now);
  const over = [
    ...(perOrder.points > CHECKS_PER_ORDER ? [perOrder.expire] : []),
    ...(perAccount.points > CHECKS_PER_ACCOUNT ? [perAccount.expire] : []),
  ];
  if (over.length > 0) {
    const seconds = Math.max(1, Math.ceil((Math.max(...over) - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', { seconds });
  }
}

async function refer(
  deps: Pick<TDeps, 'db'>,
  referToOperator: TReferToOperator,
  user: TUserRow,
  order: TPayOrderRow,
  lang: TLang,
  evidence: string[],
): Promise<TFound> {
  const content = [
    `Order ${order.id} (${order.method}), price ${formatFen(order.priceFen)}, made ${order.createdAt.toISOString()}, ` +
      `time to pay until ${order.expiresAt.toISOString()}, status ${order.status}.`,
    'The customer asked to check the payment ("I have paid"); found, not credited automatically:',
    ...evidence.map((line) => `- ${line}`),
  ].join('\n');
  const workOrderId = await deps.db.transaction(async (tx) => {
    await lockOrderReferral(tx, order.id);
    return referToOperator(tx, user, { orderId: order.id, subject: paymentCheckSubject(order.id, lang), content });
  });
  return { result: 'referred', workOrderId };
}

// Alipay, WeChat Pay: the provider's order query, settled as its notification would be.
async function checkAtProvider(
  deps: TDeps,
  provider: TPayProvider,
  order: TPayOrderRow,
  onRefusal: (evidence: string[]) => Promise<TFound>,
): Promise<TFound> {
  let state: Awaited<ReturnType<TPayProvider['query']>>;
  try {
    state = await provider.query(order.id);
  } catch (error) {
    deps.log.warn({ err: error, orderId: order.id }, 'payment provider query failed');
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  if (state.state !== 'paid') return { result: 'not_found' };
  try {
    const settled = await settlePayment(deps, order.method, {
      orderId: order.id,
      providerTxId: state.providerTxId,
      paidFen: state.paidFen,
      outcome: 'success',
    });
    return { result: settled === 'credited' ? 'credited' : 'already_paid' };
  } catch (error) {
    if (!(error instanceof NotificationRefusal)) throw error;
    deps.log.warn({ orderId: order.id, reason: error.reason }, 'a payment found by a check does not match its order');
    return onRefusal([
      `${provider.method} transaction ${state.providerTxId}: paid ${formatFen(state.paidFen)}; refused: ${error.reason}`,
    ]);
  }
}

// USDT: the chain, for final transfers of the order's exact amount to our address from the order's time on.
async function checkOnChain(
  deps: TDeps,
  provider: TUsdtProvider,
  order: TPayOrderRow,
  onUnmatched: (evidence: string[]) => Promise<TFound>,
): Promise<TFound> {
  const { chain, lateMatchMin } = provider.usdt;
  const heldUntil = order.expiresAt.getTime() + lateMatchMin * 60_000 + USDT_CLOCK_SKEW_MS;
  const since = new Date(order.createdAt.getTime() - USDT_CLOCK_SKEW_MS);
  const until = new Date(Math.min(deps.clock.now().getTime(), heldUntil + USDT_CHECK_BEYOND_HOLD_MS));
  let transfers: TChainTransfer[];
  try {
    transfers = await chain.findTransfers(since, until);
  } catch (error) {
    deps.log.warn({ err: error, orderId: order.id }, 'USDT chain lookup failed');
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  const exact = transfers
    .filter((t) => order.cryptoAmountUnits !== null && t.amountUnits === BigInt(order.cryptoAmountUnits))
    .sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime());
  if (exact.length === 0) return { result: 'not_found' };
  const credited = new Set<string>();
  for (const transfer of exact) {
    if ((await recordUsdtTransfer(deps, provider, transfer)) === 'credited')
      credited.add(`${transfer.txHash}:${transfer.logIndex}`);
  }
  const after = (await findOrder(deps.db, order.id)) ?? order;
  if (after.status === 'success')
    return { result: after.providerTxId && credited.has(after.providerTxId) ? 'credited' : 'already_paid' };
  return onUnmatched(
    exact.map(
      (t) =>
        `${provider.usdt.network} transaction ${t.txHash} (log ${t.logIndex}, block ${t.blockNumber}) at ` +
        `${t.blockTime.toISOString()}: ${formatUsdtUnits(t.amountUnits)} USDT from ${t.from} to ${t.to}; the order's ` +
        `window for this amount is ${since.toISOString()} to ${new Date(heldUntil).toISOString()}`,
    ),
  );
}

/** POST /pay/check/{order_id}. */
export async function checkOrderPayment(
  deps: TDeps,
  referToOperator: TReferToOperator,
  user: TUserRow,
  orderId: string,
  lang: TLang,
): Promise<TPayCheckResult> {
  const order = await findUserOrder(deps.db, user.id, orderId);
  if (!order) throw new AppError('NOT_FOUND');
  let found: TFound;
  if (order.status === 'success') found = { result: 'already_paid' };
  else {
    if (order.status !== 'pending' && order.status !== 'timeout') throw new AppError('PAY_ORDER_NOT_CHECKABLE');
    await limitChecks(deps, user.id, order.id);
    const provider = deps.payProviders.get(order.method);
    if (!provider) throw new AppError('PAY_METHOD_UNAVAILABLE');
    const onUnmatched = (evidence: string[]) => refer(deps, referToOperator, user, order, lang, evidence);
    const usdt = usdtProviderOf(provider);
    found = usdt
      ? await checkOnChain(deps, usdt, order, onUnmatched)
      : await checkAtProvider(deps, provider, order, onUnmatched);
  }
  const now = (await findOrder(deps.db, order.id)) ?? order;
  return { order: toPayOrder(now, lang), result: found.result, work_order_id: found.workOrderId ?? null };
}
