import { fenToYuan, type TOverview, type TOverviewQuery } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import {
  countLiveTokensByProduct,
  countQueues,
  countStockByArea,
  sumRechargesByDay,
  sumSpendByDay,
  sumTrafficByDay,
} from './overview.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC days of the window, oldest first: the last `days` days, today included. */
export function overviewDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** GET /admin/overview: every day of the window present (zero when nothing happened). */
export async function getOverview(deps: Pick<TDeps, 'db' | 'clock'>, query: TOverviewQuery): Promise<TOverview> {
  const now = deps.clock.now();
  const days = overviewDays(now, query.days);
  const from = new Date(`${days[0]}T00:00:00Z`);
  const [recharges, spend, traffic, products, stock, queues] = await Promise.all([
    sumRechargesByDay(deps.db, from),
    sumSpendByDay(deps.db, from),
    sumTrafficByDay(deps.db, from),
    countLiveTokensByProduct(deps.db, now),
    countStockByArea(deps.db),
    countQueues(deps.db),
  ]);
  const rechargeOf = new Map(recharges.map((r) => [r.day, r]));
  const spendOf = new Map(spend.map((r) => [r.day, r.amountFen]));
  const bytesOf = new Map(traffic.map((r) => [r.day, r.bytes]));
  return {
    days: query.days,
    money: days.map((day) => ({
      day,
      recharge_count: rechargeOf.get(day)?.count ?? 0,
      recharge_amount: fenToYuan(rechargeOf.get(day)?.amountFen ?? 0),
      spend_amount: fenToYuan(spendOf.get(day) ?? 0),
    })),
    traffic: days.map((day) => ({ day, bytes: bytesOf.get(day) ?? 0 })),
    active_proxies: products,
    stock,
    pending_supply: queues.pendingSupply,
    open_work_orders: queues.openWorkOrders,
    unmatched_payments: queues.unmatchedPayments,
  };
}
