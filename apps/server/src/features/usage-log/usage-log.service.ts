import {
  USAGE_LOG_EXPORT_MAX,
  USAGE_LOG_RANGE_MAX_DAYS,
  USAGE_LOG_RETENTION_DEFAULT,
  USAGE_LOG_RETENTION_MAX,
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
import { findUserById, setDomainUsageEnabled } from '../accounts/accounts.repository';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { findUserTokens } from '../proxies/proxies.repository';
import {
  createUsageLogPartition,
  deleteExpiredUsageLogRows,
  dropUsageLogPartition,
  endUsageLogTrims,
  findUsageLogSettings,
  listUsageLogPartitionDays,
  nextDay,
  trimShortenedUsageLog,
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

/**
 * The account's settings: the usage log (off with the default retention until chosen) and the usage by target
 * domain (on unless turned off).
 */
export async function getUsageLogSettings(deps: Pick<TDeps, 'db'>, userId: number): Promise<TUsageLogSettings> {
  const [row, user] = await Promise.all([findUsageLogSettings(deps.db, userId), findUserById(deps.db, userId)]);
  return {
    enabled: row?.enabled ?? false,
    retention_days: row?.retentionDays ?? USAGE_LOG_RETENTION_DEFAULT,
    domain_usage_enabled: user?.domainUsageEnabled ?? true,
  };
}

/**
 * Turns the log on or off and sets its retention, and turns the usage by domain on or off when the body says;
 * one transaction that bumps the gateways' version: they apply it before the answer (embedded) or on their next sync.
 */
export async function updateUsageLogSettings(
  deps: Pick<TDeps, 'db' | 'gatewayApplied' | 'clock'>,
  userId: number,
  body: TUsageLogSettingsBody,
): Promise<TUsageLogSettings> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await saveUsageLogSettings(tx, userId, body.enabled, body.retention_days, todayOf(deps));
      if (body.domain_usage_enabled !== undefined) await setDomainUsageEnabled(tx, userId, body.domain_usage_enabled);
      await bumpGatewayVersion(tx);
    }),
  );
  return getUsageLogSettings(deps, userId);
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
    uncharged_bytes: r.unchargedBytes,
  };
}

/** A page of a proxy's connections that ended in the window, with totals over every matching connection. */
export async function getUsageLog(
  deps: TLogDeps,
  userId: number,
  query: TWindowQuery & { page: number; page_size: number },
): Promise<TUsageLogPage> {
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
    totals: {
      connections: sums.connections,
      bytes_up: sums.bytesUp,
      bytes_down: sums.bytesDown,
      bytes: sums.bytesUp + sums.bytesDown,
      uncharged_bytes: sums.unchargedBytes,
    },
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
  'uncharged_bytes',
] as const;

/** The matching connections as CSV (oldest first, at most USAGE_LOG_EXPORT_MAX). */
export async function exportUsageLog(deps: TLogDeps, userId: number, query: TWindowQuery): Promise<RawReply> {
  const filter = await filterOf(deps, userId, query);
  const rows = await listUsageLogForExport(deps.db, filter, USAGE_LOG_EXPORT_MAX);
  const lines = rows.map((r) => {
    const e = entryOf(r);
    return USAGE_LOG_CSV_COLUMNS.map((c) => csvCell(e[c])).join(',');
  });
  return new RawReply(
    `${[USAGE_LOG_CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`,
    'text/csv; charset=utf-8',
    `usage-log-${query.token_id}.csv`,
  );
}

// Rows deleted per statement: short transactions, whatever is left to delete.
const DELETE_SLICE = 5_000;
/**
 * Day partitions kept ready from today on: a row written today expires at
 * most 30 days on (the longest retention); two more days cover gateways whose
 * clock runs ahead and a job that misses a pass around midnight.
 */
export const USAGE_LOG_PARTITIONS_AHEAD = USAGE_LOG_RETENTION_MAX + 2;

const todayOf = (deps: Pick<TDeps, 'clock'>) => deps.clock.now().toISOString().slice(0, 10);

/**
 * One pass of the partitions job: the partitions of today and the next
 * USAGE_LOG_PARTITIONS_AHEAD days that do not exist yet are created (rows that
 * waited for them in the default partition move in). Answers how many.
 */
export async function createUsageLogPartitionsAhead(deps: TLogDeps): Promise<number> {
  const today = todayOf(deps);
  const existing = new Set(await listUsageLogPartitionDays(deps.db));
  let created = 0;
  for (let i = 0; i <= USAGE_LOG_PARTITIONS_AHEAD; i += 1) {
    const day = nextDay(today, i);
    if (existing.has(day)) continue;
    await createUsageLogPartition(deps.db, day);
    created += 1;
  }
  return created;
}

/** One step of retention: the oldest day partition whose day has passed is dropped whole; answers whether there was one. */
export async function dropNextExpiredUsageLogPartition(deps: TLogDeps): Promise<boolean> {
  const today = todayOf(deps);
  const [oldest] = await listUsageLogPartitionDays(deps.db);
  if (oldest === undefined || oldest >= today) return false;
  await dropUsageLogPartition(deps.db, oldest);
  return true;
}

/** One step of retention: a slice of the past rows that waited in the default partition; answers whether rows were deleted. */
export async function deleteNextExpiredUsageLogRows(deps: TLogDeps): Promise<boolean> {
  return (await deleteExpiredUsageLogRows(deps.db, todayOf(deps), DELETE_SLICE)) > 0;
}

/** One step of retention: a slice of the rows of accounts that shortened their retention, older than the new one. */
export async function trimNextShortenedUsageLog(deps: TLogDeps): Promise<boolean> {
  return (await trimShortenedUsageLog(deps.db, todayOf(deps), DELETE_SLICE)) > 0;
}

/** Ends the shortenings whose old rows have all reached their day. */
export async function endFinishedUsageLogTrims(deps: TLogDeps): Promise<number> {
  return endUsageLogTrims(deps.db, todayOf(deps));
}
