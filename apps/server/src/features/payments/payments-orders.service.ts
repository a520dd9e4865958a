import {
  fenToYuan,
  formatUsdtUnits,
  usdtNetworkOf,
  type TLang,
  type TLedgerLine,
  type TLedgerQuery,
  type TLedgerReason,
  type TPage,
  type TPayOrder,
  type TPayRecordQuery,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { csvCell } from '../../lib/csv';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { createLedgerService } from '../ledger/ledger.service';
import { BILLS_CSV_HEADER, orderDescription } from './payment-texts';
import { endPendingOrder, findUserOrder, listUserOrders, type TPayOrderRow } from './payments.repository';

/** A customer's recharge orders (as shown, the list, one, its cancel, the bills' CSV) and the statement from the ledger. */

/** Order ids and bill dates are in Beijing time (UTC+8). */
export const BEIJING_OFFSET_MS = 8 * 3_600_000;

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
  return {
    network,
    token: 'USDT',
    amount: formatUsdtUnits(row.cryptoAmountUnits),
    address: row.cryptoAddress,
    rate: row.cryptoRate,
  };
}

/** GET /pay/record/list. */
export async function listOrders(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TPayRecordQuery,
  lang: TLang,
): Promise<TPage<TPayOrder>> {
  const { records, total } = await listUserOrders(
    deps.db,
    userId,
    query,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return { records: records.map((r) => toPayOrder(r, lang)), total, page: query.page, page_size: query.page_size };
}

/** GET /pay/order/{id}: another user's order is not found. */
export async function getOrder(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  orderId: string,
  lang: TLang,
): Promise<TPayOrder> {
  const row = await findUserOrder(deps.db, userId, orderId);
  if (!row) throw new AppError('NOT_FOUND');
  return toPayOrder(row, lang);
}

/** POST /pay/cancel/{id}: only a pending order (a payment that still arrives is credited all the same). */
export async function cancelOrder(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  orderId: string,
  lang: TLang,
): Promise<TPayOrder> {
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
    return [
      o.order_id,
      o.status,
      o.date,
      o.description,
      o.created_at,
      o.paid_at,
      o.method,
      o.amount,
      o.gift,
      o.fee,
      o.price,
      o.value,
    ]
      .map(csvCell)
      .join(',');
  });
  return new RawReply(`\uFEFF${[head.join(','), ...lines].join('\r\n')}\r\n`, 'text/csv; charset=utf-8', 'bills.csv');
}

/** GET /pay/ledger/list: the statement, from the ledger. */
export async function listStatement(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  query: TLedgerQuery,
): Promise<TPage<TLedgerLine>> {
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
