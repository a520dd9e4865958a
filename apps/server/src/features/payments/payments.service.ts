import { randomBytes } from 'node:crypto';
import {
  PAY_METHODS,
  RECHARGE_FEE_FIXED_FEN,
  RECHARGE_FEE_PERCENT,
  fenToYuan,
  formatFen,
  formatUsdtUnits,
  parseYuanAmount,
  rechargeFeeFen,
  usdtNetworkOf,
  yuanToFen,
  type TChargeInput,
  type TChargeOptions,
  type TChargeResult,
  type TLang,
  type TLedgerLine,
  type TLedgerQuery,
  type TLedgerReason,
  type TPage,
  type TPayMethod,
  type TPayOrder,
  type TPayRecordQuery,
  type TReverseOrderResult,
  type TAdminPayOrder,
  type TAdminPayOrderQuery,
} from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { csvCell } from '../../lib/csv';
import { faultPoint } from '../../lib/fault-points';
import { RawReply } from '../../lib/routing';
import { createPendingRebate, reverseRebateOfOrder } from '../invite/invite.service';
import { createLedgerService } from '../ledger/ledger.service';
import { renderRechargeMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import {
  addTotalRecharge,
  deleteOrder,
  endPendingOrder,
  findCurrentOptions,
  findOrderCustomer,
  hasOptionSets,
  findUserOrder,
  insertOptionSet,
  insertOrder,
  listStalePending,
  listOrdersWithCustomer,
  listUserOrders,
  lockOrder,
  logNotification,
  updateOrder,
  type TPayOrderRow,
} from './payments.repository';
import { isMethodSwitchedOff, offeredProviders } from './charge-options.service';
import { BILLS_CSV_HEADER, orderDescription } from './payment-texts';
import { NotificationRefusal, type TPayProvider } from './providers';
import type { TIncomingNotification, TNotificationAnswer, TVerifiedNotification } from './providers/provider';
import { usdtProviderOf, type TUsdtSettings } from './providers/usdt';
import { findHeldAmounts, holdAmount, releaseAmount } from './usdt.repository';
import { usdtBaseUnits, usdtCandidateUnits } from './usdt/usdt-amount';
import { emitRechargeWebhook } from '../webhooks/webhooks.service';

/**
 * Money in (ARCHITECTURE.md, Money): recharge orders through a provider, and
 * their settlement. Credit moves only through the ledger, keyed by (provider,
 * provider transaction), in the one transaction that moves the order out of
 * pending, so a notification replayed any number of times, concurrently or
 * across API instances, credits once. Money received is never dropped: a
 * payment for an order that timed out or was cancelled is credited all the same.
 */

type TPayDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'payProviders'>;
type TSettleDeps = TPayDeps & Pick<TDeps, 'mailer' | 'log'>;

/** Options of a fresh install (yuan, no gifts); operators edit them later. */
export const DEFAULT_CHARGE_OPTIONS_YUAN = [10, 50, 100, 200, 500, 1000];

const BEIJING_OFFSET_MS = 8 * 3_600_000;

function newOrderId(now: Date): string {
  const stamp = new Date(now.getTime() + BEIJING_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);
  return `R${stamp}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** An order as the API shows it. */
export function toPayOrder(row: TPayOrderRow, lang: TLang): TPayOrder {
  return {
    order_id: row.id,
    method: row.method,
    status: row.status,
    is_completed: row.status === 'success',
    description: orderDescription(row.amountFen, lang),
    date: new Date(row.createdAt.getTime() + BEIJING_OFFSET_MS).toISOString().slice(0, 10),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
    amount: fenToYuan(row.amountFen),
    gift: fenToYuan(row.giftFen),
    fee: fenToYuan(row.feeFen),
    price: fenToYuan(row.priceFen),
    value: fenToYuan(row.valueFen),
    is_sandbox: row.isSandbox,
    is_paid_late: row.isPaidLate,
    crypto: cryptoOf(row),
    reversed_at: row.reversedAt?.toISOString() ?? null,
  };
}

function cryptoOf(row: TPayOrderRow): TPayOrder['crypto'] {
  const network = usdtNetworkOf(row.method);
  if (!network || row.cryptoAmountUnits === null || row.cryptoAddress === null || row.cryptoRate === null) return null;
  return { network, token: 'USDT', amount: formatUsdtUnits(row.cryptoAmountUnits), address: row.cryptoAddress, rate: row.cryptoRate };
}

/** Clock skew allowed between our order times and block times. */
export const USDT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Picks the USDT amount of a new order: the price at the frozen rate plus an
 * offset of 0.01-0.99 that no other order of the network holds, and holds it
 * (in the order's transaction) until the order's window for late transfers
 * is over, paid or not: a second transfer of a paid order's amount must not
 * pay someone else's new order. PAY_AMOUNT_BUSY when all 99 are held.
 */
async function holdUsdtAmount(tx: TTx, usdt: TUsdtSettings, priceFen: number, orderId: string, until: Date, now: Date): Promise<number> {
  const candidates = usdtCandidateUnits(usdtBaseUnits(priceFen, usdt.rateMicro)).map(Number);
  const held = new Set(await findHeldAmounts(tx, usdt.network, candidates, now));
  for (const units of candidates) {
    if (held.has(units)) continue;
    if (await holdAmount(tx, usdt.network, units, orderId, until, now)) return units;
  }
  throw new AppError('PAY_AMOUNT_BUSY');
}

/** Seeds the options of a fresh install once (every API instance may try; one set is written). */
export async function seedChargeOptions(deps: Pick<TDeps, 'db'>): Promise<void> {
  if (await hasOptionSets(deps.db)) return;
  await insertOptionSet(
    deps.db,
    1,
    DEFAULT_CHARGE_OPTIONS_YUAN.map((yuan) => ({ amountFen: yuanToFen(yuan), giftFen: 0 })),
    { effectiveAt: new Date(0), createdBy: null },
  );
}

/** GET /pay/option/list. */
export async function listChargeOptions(deps: TPayDeps): Promise<TChargeOptions> {
  const options = await findCurrentOptions(deps.db, deps.clock.now());
  const providers = await offeredProviders(deps);
  return {
    record: options.map((o) => ({ id: o.id, amount: fenToYuan(o.amountFen), gift: fenToYuan(o.giftFen) })),
    methods: providers.map((p) => ({ method: p.method, modes: [...p.modes] })),
    fee: { percent: RECHARGE_FEE_PERCENT, fixed: fenToYuan(RECHARGE_FEE_FIXED_FEN) },
    min_amount: deps.config.PAY_MIN_AMOUNT,
    max_amount: deps.config.PAY_MAX_AMOUNT,
    sandbox: providers.some((p) => p.isSandbox),
  };
}

function providerOf(deps: TPayDeps, method: TPayMethod): TPayProvider {
  const provider = deps.payProviders.get(method);
  if (!provider) throw new AppError('PAY_METHOD_UNAVAILABLE');
  return provider;
}

/** POST /pay/charge/{method}/{amount}: the order, then the payment at the provider. */
export async function startCharge(deps: TSettleDeps, userId: number, input: TChargeInput, lang: TLang): Promise<TChargeResult> {
  const provider = providerOf(deps, input.method);
  if (await isMethodSwitchedOff(deps.db, provider.method)) throw new AppError('PAY_METHOD_DISABLED');
  const mode = input.mode ?? provider.modes[0];
  if (!provider.modes.includes(mode)) throw new AppError('BAD_REQUEST', undefined, [{ path: 'mode', message: 'payModeUnavailable' }]);
  const amountFen = parseYuanAmount(input.amount)!;
  const [minFen, maxFen] = [Math.round(deps.config.PAY_MIN_AMOUNT * 100), Math.round(deps.config.PAY_MAX_AMOUNT * 100)];
  if (amountFen < minFen || amountFen > maxFen) {
    throw new AppError('BAD_REQUEST', undefined, [
      { path: 'amount', message: 'amountRange', params: { min: deps.config.PAY_MIN_AMOUNT, max: deps.config.PAY_MAX_AMOUNT } },
    ]);
  }
  const options = await findCurrentOptions(deps.db, deps.clock.now());
  const option = options.find((o) => o.amountFen === amountFen);
  const giftFen = option?.giftFen ?? 0;
  const feeFen = rechargeFeeFen(amountFen);
  const now = deps.clock.now();
  const usdt = usdtProviderOf(provider)?.usdt;
  const expiresAt = new Date(now.getTime() + (usdt?.orderTtlMin ?? deps.config.PAY_ORDER_TTL_MIN) * 60_000);
  const newOrder = {
    id: newOrderId(now),
    userId,
    method: provider.method,
    mode,
    amountFen,
    giftFen,
    feeFen,
    priceFen: amountFen + feeFen,
    valueFen: amountFen + giftFen,
    optionVersion: option?.version ?? null,
    isSandbox: provider.isSandbox,
    expiresAt,
    createdAt: now,
  };
  const order = usdt
    ? await deps.db.transaction(async (tx) => {
        const heldUntil = new Date(expiresAt.getTime() + usdt.lateMatchMin * 60_000 + USDT_CLOCK_SKEW_MS);
        const units = await holdUsdtAmount(tx, usdt, newOrder.priceFen, newOrder.id, heldUntil, now);
        return insertOrder(tx, { ...newOrder, cryptoAmountUnits: units, cryptoAddress: usdt.address, cryptoRate: usdt.rate });
      })
    : await insertOrder(deps.db, newOrder);
  let start: Awaited<ReturnType<TPayProvider['create']>>;
  try {
    start = await provider.create({
      orderId: order.id,
      priceFen: order.priceFen,
      subject: orderDescription(amountFen, lang),
      mode,
      notifyUrl: `${deps.config.publicUrl}/api/pay/notify/${provider.method}`,
      returnUrl: `${deps.config.publicUrl}/charge?order=${encodeURIComponent(order.id)}`,
      expiresAt,
    });
  } catch (error) {
    // Nothing to pay: the order goes, so a failed charge leaves no trace but the log.
    deps.log.warn({ err: error, orderId: order.id, method: provider.method }, 'payment provider refused or unreachable');
    await deleteOrder(deps.db, order.id);
    if (usdt) await releaseAmount(deps.db, order.id);
    throw new AppError('PAY_PROVIDER_FAILED');
  }
  const saved = await updateOrder(deps.db, order.id, { payUrl: start.payUrl, qrCode: start.qrCode });
  return { ...toPayOrder(saved, lang), mode, pay_url: start.payUrl, qr_code: start.qrCode };
}

/** GET /pay/record/list. */
export async function listOrders(deps: Pick<TDeps, 'db'>, userId: number, query: TPayRecordQuery, lang: TLang): Promise<TPage<TPayOrder>> {
  const { records, total } = await listUserOrders(deps.db, userId, query, query.page_size, (query.page - 1) * query.page_size);
  return { records: records.map((r) => toPayOrder(r, lang)), total, page: query.page, page_size: query.page_size };
}

/** GET /admin/payments/orders: every customer's orders (or one's), with whose they are. */
export async function listOrdersForOperators(deps: Pick<TDeps, 'db'>, query: TAdminPayOrderQuery, lang: TLang): Promise<TPage<TAdminPayOrder>> {
  const filters = { status: query.status, method: query.method, orderId: query.order_id, from: query.from, to: query.to };
  const { records, total } = await listOrdersWithCustomer(deps.db, query.user_id, filters, query.page_size, (query.page - 1) * query.page_size);
  return {
    records: records.map((row) => ({ ...toPayOrder(row, lang), user_id: row.userId, user_email: row.userEmail })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** GET /pay/order/{id}: another user's order is not found. */
export async function getOrder(deps: Pick<TDeps, 'db'>, userId: number, orderId: string, lang: TLang): Promise<TPayOrder> {
  const row = await findUserOrder(deps.db, userId, orderId);
  if (!row) throw new AppError('NOT_FOUND');
  return toPayOrder(row, lang);
}

/** POST /pay/cancel/{id}: only a pending order (a payment that still arrives is credited all the same). */
export async function cancelOrder(deps: Pick<TDeps, 'db'>, userId: number, orderId: string, lang: TLang): Promise<TPayOrder> {
  const cancelled = await endPendingOrder(deps.db, orderId, 'cancelled', userId);
  if (cancelled) return toPayOrder(cancelled, lang);
  const row = await findUserOrder(deps.db, userId, orderId);
  throw new AppError(row ? 'PAY_ORDER_NOT_PENDING' : 'NOT_FOUND');
}

/** GET /pay/record/export: the filtered bills as CSV (at most 10,000 rows). */
export async function exportOrders(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: Omit<TPayRecordQuery, 'page' | 'page_size'>,
  lang: TLang,
): Promise<RawReply> {
  const { records } = await listUserOrders(deps.db, userId, query, 10_000, 0);
  const head = BILLS_CSV_HEADER[lang];
  const lines = records.map((row) => {
    const o = toPayOrder(row, lang);
    return [o.order_id, o.status, o.date, o.description, o.created_at, o.paid_at, o.method, o.amount, o.gift, o.fee, o.price, o.value].map(csvCell).join(',');
  });
  return new RawReply(`\uFEFF${[head.join(','), ...lines].join('\r\n')}\r\n`, 'text/csv; charset=utf-8', 'bills.csv');
}

/** GET /pay/ledger/list: the statement, from the ledger. */
export async function listStatement(deps: Pick<TDeps, 'db' | 'clock'>, userId: number, query: TLedgerQuery): Promise<TPage<TLedgerLine>> {
  const { records, total } = await createLedgerService(deps).listEntries(
    userId,
    { page: query.page, pageSize: query.page_size },
    { reason: query.reason, from: query.from, to: query.to },
  );
  return {
    records: records.map((e) => ({
      id: e.id,
      reason: e.reason as TLedgerReason,
      amount: fenToYuan(e.availableDelta),
      frozen_amount: fenToYuan(e.frozenDelta),
      balance_after: fenToYuan(e.availableAfter),
      frozen_after: fenToYuan(e.frozenAfter),
      reference: e.reference,
      created_at: e.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** What a settlement did. */
export type TSettlement = 'credited' | 'replay' | 'failed';

/** A settlement and the order it touched (the e-mail after the commit needs it). */
export type TSettled = { result: TSettlement; order: TPayOrderRow; balanceFen?: number };

/**
 * Applies a genuine payment to its order inside the caller's transaction,
 * exactly once: the one settlement path of every provider (notifications,
 * reconciliation, the USDT watchers). Throws NotificationRefusal when it does
 * not match the order. The caller announces a credit after its commit.
 */
export async function settleInTransaction(deps: TSettleDeps, tx: TTx, method: TPayMethod, paid: TVerifiedNotification): Promise<TSettled> {
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
  } else if (paid.paidFen !== order.priceFen) throw new NotificationRefusal(`paid ${paid.paidFen} fen, the order's price is ${order.priceFen}`);
  if (paid.outcome === 'failure') {
    const failed = order.status === 'pending' ? await endPendingOrder(tx, order.id, 'failure') : undefined;
    return { result: failed ? 'failed' : 'replay', order };
  }
  if (order.status === 'success') {
    if (order.providerTxId !== paid.providerTxId) throw new NotificationRefusal(`order already paid by transaction ${order.providerTxId}`);
    return { result: 'replay', order };
  }
  const credit = await createLedgerService(deps).credit(
    { userId: order.userId, amountFen: order.valueFen, reason: 'recharge', reference: order.id, idempotencyKey: `pay:${method}:${paid.providerTxId}` },
    tx,
  );
  await faultPoint('settle.credited', tx);
  // Late: paid after the order's time (a chain says when), or after it ended unpaid.
  const isPaidLate = paid.paidAt
    ? paid.paidAt.getTime() > order.expiresAt.getTime() || order.status === 'cancelled' || order.status === 'failure'
    : order.status !== 'pending';
  const settled = await updateOrder(tx, order.id, { status: 'success', providerTxId: paid.providerTxId, paidAt: deps.clock.now(), isPaidLate });
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
export async function settlePayment(deps: TSettleDeps, method: TPayMethod, paid: TVerifiedNotification): Promise<TSettlement> {
  const settled = await deps.db.transaction((tx) => settleInTransaction(deps, tx, method, paid));
  await announceSettlement(deps, settled);
  return settled.result;
}

/**
 * A provider's notification: verified, settled, logged, answered the way the
 * provider expects. A refusal is logged with its reason and answered as one
 * (the provider resends; nothing is credited). Other failures (the database)
 * throw, so the provider resends later.
 */
export async function receiveNotification(deps: TSettleDeps, method: string, incoming: TIncomingNotification, ip: string): Promise<TNotificationAnswer | null> {
  if (!(PAY_METHODS as readonly string[]).includes(method)) return null;
  const provider = deps.payProviders.get(method as TPayMethod);
  if (!provider) return null;
  let orderId: string | null = null;
  try {
    const paid = await provider.verify(incoming);
    orderId = paid.orderId;
    const result = await settlePayment(deps, provider.method, paid);
    await logNotification(deps.db, { method: provider.method, orderId, result, ip });
    return provider.answers.ok;
  } catch (error) {
    if (!(error instanceof NotificationRefusal)) throw error;
    deps.log.warn({ method: provider.method, orderId, reason: error.reason, ip }, 'payment notification refused');
    await logNotification(deps.db, { method: provider.method, orderId, result: 'refused', reason: error.reason.slice(0, 500), ip });
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
        await settlePayment(deps, order.method, { orderId: order.id, providerTxId: state.providerTxId, paidFen: state.paidFen, outcome: 'success' });
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

/**
 * POST /admin/payments/orders/:order_id/reverse (a refund made outside,
 * recorded here), in one transaction under the order's lock: the value the
 * balance received is debited as far as the available balance goes and the
 * rest becomes debt (the next top-up settles it first), total recharge drops
 * by the order's amount (the role follows), and the order's rebate is
 * cancelled or taken back. A second reversal is refused.
 */
export async function reverseRecharge(deps: Pick<TDeps, 'db' | 'clock'>, orderId: string, reason: string, lang: TLang): Promise<TReverseOrderResult> {
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new AppError('NOT_FOUND');
    if (order.status !== 'success' || order.reversedAt !== null) throw new AppError('ORDER_NOT_REVERSIBLE');
    const taken = await createLedgerService(deps).takeBackOrOwe(tx, order.userId, order.valueFen, `reverse:${order.id}`, order.id);
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
