import type { TStickySessionEnd } from '@proxy/contract';
import type { Connection } from './connection';
import type { TExit } from './egress';

/**
 * The session hold report's gateway side (docs/usage.md, "Session hold report"): for each sticky session (a username
 * with a session) in each of its windows (the window every gateway computes for it, rotation.ts), what first carried
 * it, its exit address where known, when it was first and last used, and when and why it first left that exit
 * before the window's end: its pool or exit failed and another carried it (failover), the pool reported another
 * exit address (exit-changed), it stayed idle past the pool's session limit (idle), or the proxy stopped while it
 * carried traffic (proxy-stopped). Changed records go out with the usage batch; a window's record is forgotten once
 * the window is over and written.
 */

/** A sticky session as a grant carries it. */
export type TStickySession = {
  /** The customer's session id. */
  session: string;
  minutes: number;
  /** The window (ms since the epoch) every gateway computes for the token and session. */
  windowStart: number;
  windowEnd: number;
};

/** One session window's figures as this process saw them (sticky_sessions). */
export type TStickySessionRow = {
  tokenId: number;
  userId: number;
  session: string;
  windowStart: Date;
  askedMinutes: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  carrier: string | null;
  exitIp: string | null;
  changedAt: Date | null;
  endReason: TStickySessionEnd | null;
  /** Connections since the last batch. */
  connections: number;
};

type TRecord = TStickySessionRow & { windowEnd: number; isDirty: boolean };

/** Session windows tracked per token at most in one process (beyond: not reported, so the rows stay bounded). */
export const SESSIONS_PER_TOKEN_MAX = 1000;

/** The carrier's name in the report and the usage log ('pool:ID' or 'exit:ID'). */
export function carrierKey(exit: TExit): string {
  return `${exit.kind === 'pool' ? 'pool' : 'exit'}:${exit.id}`;
}

// Refusals that stop a proxy while it carries traffic.
const STOPS = new Set(['token-disabled', 'token-expired', 'token-exhausted']);

/** This process's session records. */
export function createStickySessions(options: { now: () => number }) {
  const records = new Map<string, TRecord>();
  const perToken = new Map<number, number>();

  return {
    /**
     * A connection of a sticky session was dialled through `exit` (`exitIp`: the exit address where known;
     * `idleLimitMinutes`: the pool's session idle limit, if stated).
     */
    seen(
      conn: Connection,
      tokenId: number,
      userId: number,
      sticky: TStickySession,
      exit: TExit,
      exitIp: string | null,
      idleLimitMinutes: number | null,
    ): void {
      const t = options.now();
      const key = `${tokenId}\n${sticky.session}\n${sticky.windowStart}`;
      const carrier = carrierKey(exit);
      let rec = records.get(key);
      if (!rec) {
        const count = perToken.get(tokenId) ?? 0;
        if (count >= SESSIONS_PER_TOKEN_MAX) return;
        perToken.set(tokenId, count + 1);
        rec = {
          tokenId,
          userId,
          session: sticky.session,
          windowStart: new Date(sticky.windowStart),
          windowEnd: sticky.windowEnd,
          askedMinutes: sticky.minutes,
          firstSeenAt: new Date(t),
          lastSeenAt: new Date(t),
          carrier,
          exitIp,
          changedAt: null,
          endReason: null,
          connections: 0,
          isDirty: true,
        };
        records.set(key, rec);
      } else if (rec.endReason === null) {
        const idleMs = idleLimitMinutes === null ? Infinity : idleLimitMinutes * 60_000;
        if (carrier !== rec.carrier) end(rec, t, 'failover');
        else if (t - rec.lastSeenAt.getTime() > idleMs) end(rec, rec.lastSeenAt.getTime() + idleMs, 'idle');
        else if (exitIp !== null && rec.exitIp !== null && exitIp !== rec.exitIp) end(rec, t, 'exit-changed');
      }
      rec.exitIp ??= exitIp;
      rec.lastSeenAt = new Date(t);
      rec.connections += 1;
      rec.isDirty = true;
      conn.stickyKey = key;
    },
    /** A connection closed: cut because its proxy stopped, its session ends early. */
    closed(conn: Connection): void {
      if (conn.stickyKey === null || !conn.isCut || !conn.endReason || !STOPS.has(conn.endReason)) return;
      const rec = records.get(conn.stickyKey);
      const t = options.now();
      if (rec && rec.endReason === null && t < rec.windowEnd) {
        end(rec, t, 'proxy-stopped');
        rec.isDirty = true;
      }
    },
    /** Records changed since the last batch (their connections counted since then); windows over are forgotten. */
    takeRows(): TStickySessionRow[] {
      const t = options.now();
      const rows: TStickySessionRow[] = [];
      for (const [key, rec] of records) {
        if (rec.isDirty) {
          const { windowEnd: _end, isDirty: _dirty, ...row } = rec;
          rows.push(row);
          rec.isDirty = false;
          rec.connections = 0;
        }
        if (t > rec.windowEnd) {
          records.delete(key);
          const left = (perToken.get(rec.tokenId) ?? 1) - 1;
          if (left > 0) perToken.set(rec.tokenId, left);
          else perToken.delete(rec.tokenId);
        }
      }
      return rows;
    },
    /** Records held (tests, diagnostics). */
    size: () => records.size,
  };
}

function end(rec: TStickySessionRow, at: number, reason: TStickySessionEnd): void {
  rec.changedAt = new Date(at);
  rec.endReason = reason;
}

/** The session records type. */
export type TStickySessions = ReturnType<typeof createStickySessions>;
