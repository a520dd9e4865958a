import {
  USAGE_LOG_EXPORT_MAX,
  USAGE_LOG_RANGE_MAX_DAYS,
  USAGE_LOG_RETENTION_DEFAULT,
  type TUsageLogEntry,
  type TUsageLogOutcome,
  type TUsageLogPage,
  type TUsageLogSettings,
  type TUsageLogSettingsBody,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import { csvCell } from '../../lib/csv';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { findUserTokens } from '../proxies/proxies.repository';
import {
  dropExpiredUsageLog,
  findUsageLogSettings,
  listUsageLog,
  listUsageLogForExport,
  saveUsageLogSettings,
  sumUsageLog,
  type TUsageLogEntryRow,
  type TUsageLogFilter,
} from './usage-log.repository';

/**
 * The per-connection usage log: the account's opt-in and retention (applied
 * by the gateways at once: the change bumps their version), a proxy's
 * connections with totals over the filters, the CSV, and retention.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

type TLogDeps = Pick<TDeps, 'db' | 'clock'>;

/** The account's setting; off with the default retention until chosen. */
export async function getUsageLogSettings(deps: Pick<TDeps, 'db'>, userId: number): Promise<TUsageLogSettings> {
  const row = await findUsageLogSettings(deps.db, userId);
  return { enabled: row?.enabled ?? false, retention_days: row?.retentionDays ?? USAGE_LOG_RETENTION_DEFAULT };
}

/** Turns the log on or off and sets its retention; gateways apply it before the answer (embedded) or on their next sync. */
export async function updateUsageLogSettings(
  deps: Pick<TDeps, 'db' | 'gatewayApplied'>,
  userId: number,
  body: TUsageLogSettingsBody,
): Promise<TUsageLogSettings> {
  const row = await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const saved = await saveUsageLogSettings(tx, userId, body.enabled, body.retention_days);
      await bumpGatewayVersion(tx);
      return saved;
    }),
  );
  return { enabled: row.enabled, retention_days: row.retentionDays };
}

type TWindowQuery = { token_id: number; from?: Date; to?: Date; target?: string; outcome?: TUsageLogOutcome };

// The proxy must be the caller's; the window defaults to the last 24 hours and covers at most USAGE_LOG_RANGE_MAX_DAYS.
async function filterOf(deps: TLogDeps, userId: number, query: TWindowQuery): Promise<TUsageLogFilter> {
  if ((await findUserTokens(deps.db, userId, [query.token_id])).length === 0) throw new AppError('NOT_FOUND');
  const to = query.to ?? deps.clock.now();
  const from = query.from ?? new Date(to.getTime() - DAY_MS);
  if (from > to) throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'rangeOrder' }]);
  if (to.getTime() - from.getTime() > USAGE_LOG_RANGE_MAX_DAYS * DAY_MS) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'from', message: 'usageLogRangeDays' }]);
  }
  return { userId, tokenId: query.token_id, from, to, target: query.target || undefined, outcome: query.outcome };
}

function entryOf(r: TUsageLogEntryRow): TUsageLogEntry {
  return {
    id: r.id,
    token_id: r.tokenId,
    protocol: r.protocol,
    source_ip: r.sourceIp,
    target_host: r.targetHost,
    target_port: r.targetPort,
    started_at: r.startedAt.toISOString(),
    ended_at: r.endedAt.toISOString(),
    bytes_up: r.bytesUp,
    bytes_down: r.bytesDown,
    outcome: r.outcome,
    reason: r.reason,
  };
}

/** A page of a proxy's connections that ended in the window, with totals over every matching connection. */
export async function getUsageLog(deps: TLogDeps, userId: number, query: TWindowQuery & { page: number; page_size: number }): Promise<TUsageLogPage> {
  const filter = await filterOf(deps, userId, query);
  const [sums, rows, settings] = await Promise.all([
    sumUsageLog(deps.db, filter),
    listUsageLog(deps.db, filter, (query.page - 1) * query.page_size, query.page_size),
    findUsageLogSettings(deps.db, userId),
  ]);
  return {
    records: rows.map(entryOf),
    total: sums.connections,
    page: query.page,
    page_size: query.page_size,
    totals: { connections: sums.connections, bytes_up: sums.bytesUp, bytes_down: sums.bytesDown, bytes: sums.bytesUp + sums.bytesDown },
    from: filter.from.toISOString(),
    to: filter.to.toISOString(),
    enabled: settings?.enabled ?? false,
  };
}

/** The CSV columns, in order. */
export const USAGE_LOG_CSV_COLUMNS = [
  'started_at',
  'ended_at',
  'protocol',
  'source_ip',
  'target_host',
  'target_port',
  'bytes_up',
  'bytes_down',
  'outcome',
  'reason',
] as const;

/** The matching connections as CSV (oldest first, at most USAGE_LOG_EXPORT_MAX). */
export async function exportUsageLog(deps: TLogDeps, userId: number, query: TWindowQuery): Promise<RawReply> {
  const filter = await filterOf(deps, userId, query);
  const rows = await listUsageLogForExport(deps.db, filter, USAGE_LOG_EXPORT_MAX);
  const lines = rows.map((r) => {
    const e = entryOf(r);
    return USAGE_LOG_CSV_COLUMNS.map((c) => csvCell(e[c])).join(',');
  });
  return new RawReply(`${[USAGE_LOG_CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`, 'text/csv; charset=utf-8', `usage-log-${query.token_id}.csv`);
}

// Rows deleted per statement: short transactions, whatever a day holds.
const DROP_SLICE = 5_000;

/** One step of the retention job: drops rows past their owner's retention, a slice at a time; answers whether rows were dropped. */
export async function dropNextExpiredUsageLog(deps: TLogDeps): Promise<boolean> {
  const today = deps.clock.now().toISOString().slice(0, 10);
  return (await dropExpiredUsageLog(deps.db, today, DROP_SLICE)) > 0;
}
