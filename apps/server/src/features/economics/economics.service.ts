import {
  ECONOMICS_DEFAULT_DAYS,
  ECONOMICS_MAX_DAYS,
  formatFen,
  type TEconomicsQuery,
  type TEconomicsReport,
  type TEconomicsRow,
  type TEconomicsSummary,
  type TLang,
  type TReconciliation,
  type TReconciliationImportBody,
  type TReconciliationImportResult,
  type TReconciliationQuery,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { csvCell } from '../../lib/csv';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { parseProviderReport } from './economics-csv';
import {
  findPoolName,
  listProviderBytes,
  lockPool,
  sumEconomics,
  sumPoolBytesByDay,
  upsertProviderBytes,
  type TEconomicsGroupRow,
} from './economics.repository';

/**
 * The operator's economics of pools and exits (docs/economics.md): the report, its CSV, the margin at a glance,
 * and a pool's reconciliation with its provider's usage report. Sums arrive exact from the database as decimal
 * strings and are added and subtracted as BigInt.
 */

type TEconomicsDeps = Pick<TDeps, 'db' | 'clock'>;

const DAY_MS = 24 * 60 * 60 * 1000;

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The range asked (UTC days, both included): to defaults to today, from to 30 days ending at `to`; at most 366 days. */
export function economicsRange(now: Date, query: { from?: string; to?: string }): { from: string; to: string } {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? addDays(to, -(ECONOMICS_DEFAULT_DAYS - 1));
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1 || days > ECONOMICS_MAX_DAYS) throw new AppError('ECONOMICS_RANGE_INVALID', { max: ECONOMICS_MAX_DAYS });
  return { from, to };
}

// An exact decimal sum as a JSON number: every figure here is an integer well inside 2^53 (fen, bytes).
function toNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`economics figure out of range: ${value}`);
  return Number(value);
}

function toRow(
  row: TEconomicsGroupRow,
): TEconomicsRow & { bytesExact: bigint; unchargedExact: bigint; costExact: bigint; revenueExact: bigint } {
  const bytesExact = BigInt(row.bytes);
  const unchargedExact = BigInt(row.uncharged_bytes);
  const costExact = BigInt(row.cost_fen);
  const revenueExact = BigInt(row.revenue_fen);
  const margin = revenueExact - costExact;
  return {
    line: row.line,
    day: row.day,
    carrier_kind: row.carrier_kind,
    carrier_id: row.carrier_id === null ? null : Number(row.carrier_id),
    carrier_name: row.carrier_name,
    category: row.category,
    product: row.product,
    billing: row.billing,
    country: row.country,
    bytes: toNumber(bytesExact),
    uncharged_bytes: toNumber(unchargedExact),
    cost_fen: toNumber(costExact),
    revenue_fen: toNumber(revenueExact),
    margin_fen: toNumber(margin),
    is_negative: margin < 0n,
    bytesExact,
    unchargedExact,
    costExact,
    revenueExact,
  };
}

/** GET /admin/economics: the groups of the range and their totals. */
export async function getEconomics(deps: TEconomicsDeps, query: TEconomicsQuery): Promise<TEconomicsReport> {
  const now = deps.clock.now();
  const range = economicsRange(now, query);
  const rows = (await sumEconomics(deps.db, { ...range, now }, query.group_by)).map(toRow);
  let carriedBytes = 0n;
  let unusedBytes = 0n;
  let unchargedBytes = 0n;
  let cost = 0n;
  let carriedRevenue = 0n;
  let soldNotCarried = 0n;
  for (const row of rows) {
    cost += row.costExact;
    unchargedBytes += row.unchargedExact;
    if (row.line === 'carried') {
      carriedBytes += row.bytesExact;
      carriedRevenue += row.revenueExact;
    } else {
      unusedBytes += row.bytesExact;
      soldNotCarried += row.revenueExact;
    }
  }
  const revenue = carriedRevenue + soldNotCarried;
  const margin = revenue - cost;
  return {
    ...range,
    group_by: query.group_by,
    rows: rows.map(({ bytesExact: _b, unchargedExact: _u, costExact: _c, revenueExact: _r, ...row }) => row),
    totals: {
      bytes: toNumber(carriedBytes + unusedBytes),
      carried_bytes: toNumber(carriedBytes),
      unused_bytes: toNumber(unusedBytes),
      uncharged_bytes: toNumber(unchargedBytes),
      cost_fen: toNumber(cost),
      revenue_fen: toNumber(revenue),
      carried_revenue_fen: toNumber(carriedRevenue),
      sold_not_carried_fen: toNumber(soldNotCarried),
      margin_fen: toNumber(margin),
      is_negative: margin < 0n,
    },
  };
}

/** GET /admin/economics/summary: the margin today and over the last 30 days (today included), from one report by day. */
export async function getEconomicsSummary(deps: TEconomicsDeps): Promise<TEconomicsSummary> {
  const today = dayOf(deps.clock.now());
  const from = addDays(today, -(ECONOMICS_DEFAULT_DAYS - 1));
  const report = await getEconomics(deps, { from, to: today, group_by: 'day' });
  let cost = 0n;
  let revenue = 0n;
  for (const row of report.rows.filter((r) => r.day === today)) {
    cost += BigInt(row.cost_fen);
    revenue += BigInt(row.revenue_fen);
  }
  const { totals } = report;
  return {
    today: {
      from: today,
      to: today,
      cost_fen: toNumber(cost),
      revenue_fen: toNumber(revenue),
      margin_fen: toNumber(revenue - cost),
      is_negative: revenue < cost,
    },
    last_30_days: {
      from,
      to: today,
      cost_fen: totals.cost_fen,
      revenue_fen: totals.revenue_fen,
      margin_fen: totals.margin_fen,
      is_negative: totals.is_negative,
    },
  };
}

const CSV_HEADER: Record<TLang, string[]> = {
  zh: [
    '行',
    '日期',
    '承载方类型',
    '承载方ID',
    '承载方',
    '类别',
    '产品',
    '计费',
    '地区',
    '字节数',
    '未计费字节数',
    '成本(元)',
    '收入(元)',
    '毛利(元)',
    '亏损',
  ],
  en: [
    'line',
    'day',
    'carrier_kind',
    'carrier_id',
    'carrier',
    'category',
    'product',
    'billing',
    'area',
    'bytes',
    'uncharged_bytes',
    'cost_yuan',
    'revenue_yuan',
    'margin_yuan',
    'negative',
  ],
};

// Money as yuan with two decimals, written from fen (exact); numbers are never passed through csvCell, whose
// formula guard would quote a negative amount.
const yuan = (fen: number) => formatFen(fen, { symbol: false });

/** GET /admin/economics/export: the report's rows and its totals line as CSV (the same figures, money in yuan). */
export async function exportEconomics(deps: TEconomicsDeps, query: TEconomicsQuery, lang: TLang): Promise<RawReply> {
  const report = await getEconomics(deps, query);
  const lines = report.rows.map((r) =>
    [
      csvCell(r.line),
      csvCell(r.day),
      csvCell(r.carrier_kind),
      r.carrier_id ?? '',
      csvCell(r.carrier_name),
      csvCell(r.category),
      csvCell(r.product),
      csvCell(r.billing),
      csvCell(r.country),
      r.bytes,
      r.uncharged_bytes,
      yuan(r.cost_fen),
      yuan(r.revenue_fen),
      yuan(r.margin_fen),
      r.is_negative ? 1 : 0,
    ].join(','),
  );
  const t = report.totals;
  const total = ['total', '', '', '', '', '', '', '', '', t.bytes, t.uncharged_bytes, yuan(t.cost_fen)];
  lines.push([...total, yuan(t.revenue_fen), yuan(t.margin_fen), t.is_negative ? 1 : 0].join(','));
  const name = `economics-${report.group_by}-${report.from}-${report.to}.csv`;
  return new RawReply(
    `\uFEFF${[CSV_HEADER[lang].join(','), ...lines].join('\r\n')}\r\n`,
    'text/csv; charset=utf-8',
    name,
  );
}

/** GET /admin/economics/pools/:id/reconciliation: every day of the range, ours beside the provider's. */
export async function getReconciliation(deps: TEconomicsDeps, query: TReconciliationQuery): Promise<TReconciliation> {
  const range = economicsRange(deps.clock.now(), query);
  const name = await findPoolName(deps.db, query.id);
  if (name === undefined) throw new AppError('NOT_FOUND');
  const [ours, theirs] = await Promise.all([
    sumPoolBytesByDay(deps.db, query.id, range.from, range.to),
    listProviderBytes(deps.db, query.id, range.from, range.to),
  ]);
  const ourOf = new Map(ours.map((r) => [r.day, BigInt(r.bytes)]));
  const theirOf = new Map(theirs.map((r) => [r.day, BigInt(r.bytes)]));
  const threshold = BigInt(query.threshold_bp);
  let ourTotal = 0n;
  let theirTotal = 0n;
  let flagged = 0;
  const days: TReconciliation['days'] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const our = ourOf.get(day) ?? 0n;
    const their = theirOf.get(day);
    ourTotal += our;
    if (their === undefined) {
      days.push({
        day,
        our_bytes: toNumber(our),
        provider_bytes: null,
        difference_bytes: null,
        difference_bp: null,
        is_flagged: false,
      });
      continue;
    }
    theirTotal += their;
    const difference = their - our;
    const magnitude = difference < 0n ? -difference : difference;
    // Above the threshold of our bytes, compared in integers: |d| x 10000 > threshold x ours.
    const isFlagged = our === 0n ? magnitude > 0n : magnitude * 10_000n > threshold * our;
    if (isFlagged) flagged += 1;
    days.push({
      day,
      our_bytes: toNumber(our),
      provider_bytes: toNumber(their),
      difference_bytes: toNumber(difference),
      difference_bp: our === 0n ? null : toNumber((difference * 10_000n) / our),
      is_flagged: isFlagged,
    });
  }
  return {
    pool_id: query.id,
    pool_name: name,
    ...range,
    threshold_bp: query.threshold_bp,
    days,
    totals: { our_bytes: toNumber(ourTotal), provider_bytes: toNumber(theirTotal), flagged_days: flagged },
  };
}

/**
 * POST /admin/economics/pools/:id/reconciliation: the report's days replace those stored for the pool, in one
 * transaction (the routing layer's audit entry goes into it); a bad line refuses the whole report.
 */
export async function importReconciliation(
  deps: TEconomicsDeps,
  input: TReconciliationImportBody,
): Promise<TReconciliationImportResult> {
  const parsed = parseProviderReport(input.csv);
  if (parsed.issues.length > 0) throw new AppError('RECONCILIATION_CSV_INVALID', undefined, parsed.issues.slice(0, 20));
  const sorted = [...parsed.days].sort((a, b) => (a.day < b.day ? -1 : 1));
  return deps.db.transaction(async (tx) => {
    if ((await lockPool(tx, input.id)) === undefined) throw new AppError('NOT_FOUND');
    await upsertProviderBytes(tx, input.id, sorted, deps.clock.now());
    return { pool_id: input.id, days: sorted.length, from: sorted[0].day, to: sorted[sorted.length - 1].day };
  });
}
