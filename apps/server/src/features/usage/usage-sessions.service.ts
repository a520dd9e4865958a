import {
  SESSION_HOLDS_DAYS,
  SESSTIME_MAX_MINUTES,
  STICKY_SESSION_END_TEXTS,
  type TLang,
  type TSessionHold,
  type TSessionHoldsPage,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { findUserTokens } from '../proxies/proxies.repository';
import {
  countStickySessions,
  deleteLapsedExitClaims,
  deleteStickySessionsBefore,
  listStickySessions,
  type TStickySessionRow,
} from './usage-sessions.repository';

/**
 * The session hold report (docs/usage.md, "Session hold report"): a proxy's sticky sessions of the last
 * SESSION_HOLDS_DAYS days as the gateways recorded them (sticky_sessions), and the retention of the session tables.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Days a sticky session row is kept: one more than the report shows. */
export const STICKY_SESSIONS_KEPT_DAYS = SESSION_HOLDS_DAYS + 1;

type TSessionsDeps = Pick<TDeps, 'db' | 'clock'>;

/**
 * One session as the report shows it. Minutes kept run from its first connection to when it left its exit, or to
 * its last connection when it never did (a session used for less than its asked time still held: it kept its exit
 * as long as it was used); never more than asked.
 */
export function toSessionHold(row: TStickySessionRow, lang: TLang): TSessionHold {
  const keptUntil = row.changedAt ?? row.lastSeenAt;
  const keptMs = Math.max(0, Math.min(keptUntil.getTime() - row.firstSeenAt.getTime(), row.askedMinutes * MINUTE_MS));
  return {
    session: row.session,
    started_at: row.firstSeenAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    asked_minutes: row.askedMinutes,
    kept_minutes: Math.floor(keptMs / (MINUTE_MS / 10)) / 10,
    held: row.endReason === null,
    end_reason: row.endReason,
    end_reason_text: row.endReason === null ? null : STICKY_SESSION_END_TEXTS[row.endReason][lang],
    connections: row.connections,
  };
}

/** A page of one proxy's sticky sessions of the last SESSION_HOLDS_DAYS days (newest first), with the summary. */
export async function getSessionHolds(
  deps: TSessionsDeps,
  userId: number,
  query: { token_id: number; page: number; page_size: number },
  lang: TLang,
): Promise<TSessionHoldsPage> {
  if ((await findUserTokens(deps.db, userId, [query.token_id])).length === 0) throw new AppError('NOT_FOUND');
  const to = deps.clock.now();
  const since = new Date(to.getTime() - SESSION_HOLDS_DAYS * DAY_MS);
  // A session first seen in the period belongs to a window that started at most the longest window before.
  const filter = {
    userId,
    tokenId: query.token_id,
    since,
    windowsSince: new Date(since.getTime() - SESSTIME_MAX_MINUTES * MINUTE_MS),
  };
  const [counts, rows] = await Promise.all([
    countStickySessions(deps.db, filter),
    listStickySessions(deps.db, filter, (query.page - 1) * query.page_size, query.page_size),
  ]);
  const ended = Object.values(counts.ends).reduce((sum, n) => sum + n, 0);
  const held = counts.sessions - ended;
  return {
    records: rows.map((row) => toSessionHold(row, lang)),
    total: counts.sessions,
    page: query.page,
    page_size: query.page_size,
    summary: {
      sessions: counts.sessions,
      held,
      held_share: counts.sessions === 0 ? 0 : Math.round((held / counts.sessions) * 10_000) / 10_000,
      ends: counts.ends,
    },
    from: since.toISOString(),
    to: to.toISOString(),
  };
}

// Rows deleted per statement: short statements, whatever is left to delete.
const DELETE_SLICE = 5_000;

/** One step of retention: a slice of sticky sessions whose window started over STICKY_SESSIONS_KEPT_DAYS ago. */
export async function deleteNextOldStickySessions(deps: TSessionsDeps): Promise<boolean> {
  const before = new Date(deps.clock.now().getTime() - STICKY_SESSIONS_KEPT_DAYS * DAY_MS);
  return (await deleteStickySessionsBefore(deps.db, before, DELETE_SLICE)) > 0;
}

/** One step of retention: a slice of the exit claims that have lapsed. */
export async function deleteNextLapsedExitClaims(deps: TSessionsDeps): Promise<boolean> {
  return (await deleteLapsedExitClaims(deps.db, deps.clock.now(), DELETE_SLICE)) > 0;
}
