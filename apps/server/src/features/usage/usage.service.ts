import {
  TRAFFIC_POINTS_MAX,
  fenToYuan,
  type TSessionTraffic,
  type TSessionTrafficQuery,
  type TStatisticsAmount,
  type TStatisticsAmountQuery,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { answerHoldsUntil } from '../../lib/answer-cache';
import type { TDeps } from '../../lib/deps';
import { findUserTokens } from '../proxies/proxies.repository';
import { sumMoneyByDay, sumUsageByHour } from './usage.repository';

/**
 * Traffic and spend series for the dashboard: GET /token/session/traffic
 * (charged and uncharged bytes from token_usage) and GET /user/statistics/amount (the ledger).
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const DEFAULT_TRAFFIC_RANGE_MS = 7 * DAY_MS;

type TUsageDeps = Pick<TDeps, 'db' | 'clock'>;

/** Start of the bucket holding `t`: UTC hours, or days from midnight at the given UTC offset. */
export function bucketStart(t: number, unitMs: number, tzOffsetMinutes: number): number {
  const shift = unitMs === DAY_MS ? tzOffsetMinutes * 60_000 : 0;
  return Math.floor((t + shift) / unitMs) * unitMs - shift;
}

/**
 * Traffic over time for one token, a list or all the user's tokens. The
 * buckets cover whole hours (or local days) from the one holding `from` to
 * the one holding `to`, zero-filled; their sums are exactly the charged and
 * the uncharged bytes of those hours.
 */
export async function getSessionTraffic(
  deps: TUsageDeps,
  userId: number,
  query: TSessionTrafficQuery,
): Promise<TSessionTraffic> {
  if (query.token_id !== undefined && (await findUserTokens(deps.db, userId, [query.token_id])).length === 0) {
    throw new AppError('NOT_FOUND');
  }
  const to = (query.to ?? deps.clock.now()).getTime();
  const from = (query.from ?? new Date(to - DEFAULT_TRAFFIC_RANGE_MS)).getTime();
  if (from > to) throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'rangeOrder' }]);
  const unit = query.granularity === 'hour' ? HOUR_MS : DAY_MS;
  const start = bucketStart(from, unit, query.tz_offset_minutes);
  const end = bucketStart(to, unit, query.tz_offset_minutes) + unit;
  // Up to now: the same buckets until the current one ends.
  if (query.to === undefined) answerHoldsUntil(end);
  const count = Math.round((end - start) / unit);
  if (count > TRAFFIC_POINTS_MAX)
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'rangeTooLong' }]);

  const points = Array.from({ length: count }, (_, i) => ({
    at: new Date(start + i * unit).toISOString(),
    bytes: 0,
    uncharged_bytes: 0,
  }));
  let total = 0;
  let totalUncharged = 0;
  const rows = await sumUsageByHour(
    deps.db,
    { userId, tokenId: query.token_id, list: query.list },
    new Date(start),
    new Date(end),
  );
  for (const row of rows) {
    // An hour belongs to the day its start falls in (zones with half-hour offsets split no hour).
    const index = Math.floor((row.bucket.getTime() - start) / unit);
    points[index].bytes += row.bytes;
    points[index].uncharged_bytes += row.unchargedBytes;
    total += row.bytes;
    totalUncharged += row.unchargedBytes;
  }
  return {
    granularity: query.granularity,
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
    points,
    total_bytes: total,
    total_uncharged_bytes: totalUncharged,
  };
}

/** Local date (YYYY-MM-DD) of an instant at a UTC offset. */
function localDate(t: number, tzOffsetMinutes: number): string {
  return new Date(t + tzOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/**
 * Spend and recharge per day over the last `days` local days (today
 * included), zero-filled, in yuan.
 */
export async function getStatisticsAmount(
  deps: TUsageDeps,
  userId: number,
  query: TStatisticsAmountQuery,
): Promise<TStatisticsAmount> {
  const offset = query.tz_offset_minutes;
  const today = bucketStart(deps.clock.now().getTime(), DAY_MS, offset);
  const start = today - (query.days - 1) * DAY_MS;
  const rows = await sumMoneyByDay(deps.db, userId, new Date(start), new Date(today + DAY_MS), offset);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  let spendFen = 0;
  let rechargeFen = 0;
  const points = Array.from({ length: query.days }, (_, i) => {
    const date = localDate(start + i * DAY_MS, offset);
    const row = byDate.get(date);
    spendFen += row?.spendFen ?? 0;
    rechargeFen += row?.rechargeFen ?? 0;
    return { date, spend: fenToYuan(row?.spendFen ?? 0), recharge: fenToYuan(row?.rechargeFen ?? 0) };
  });
  return { points, total_spend: fenToYuan(spendFen), total_recharge: fenToYuan(rechargeFen) };
}
