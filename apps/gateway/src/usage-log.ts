import { randomUUID } from 'node:crypto';
import { parseProxyUsername, type TUsageLogOutcome, type TUsageLogProtocol } from '@proxy/contract';
import type { TDb } from '@proxy/db';
import type { TCredentials } from './authorizer';
import type { Connection } from './connection';
import { writeUsageLog, type TUsageLogBatch, type TUsageLogRow } from './usage-log.repository';
import type { TStateCache } from './state-cache';

/** What the connection registry tells the usage log. */
export type TUsageLogSink = {
  /** The token of credentials that were right but refused (expired, exhausted...): its owner sees the refusal. */
  tokenOf(credentials: TCredentials): number | null;
  /** A connection of an identified token closed: one row when its owner opted in. */
  closed(conn: Connection): void;
};

const PROTOCOLS: readonly TUsageLogProtocol[] = ['http', 'connect', 'socks5'];
// Rows waiting while the database cannot be written: beyond this, new rows are dropped (and counted).
const PENDING_MAX = 200_000;

/** UTC date (YYYY-MM-DD) of an instant: the day retention drops. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The per-connection usage log of the accounts that opted in (the state
 * cache knows which): one row per connection, pushed when it closes with the
 * bytes the meter counted for it, written in batches off the hot path.
 *
 * Like the meter, each flush is a batch with its own id; a flush that fails
 * keeps its batch and the next flush sends that same batch first, so a batch
 * whose commit went through but whose answer was lost is written once.
 */
export function createUsageLog(options: { db: TDb; cache: TStateCache; now?: () => number }) {
  const { cache } = options;
  const now = options.now ?? Date.now;
  let pending: TUsageLogRow[] = [];
  let unsettled: TUsageLogBatch | null = null;
  let dropped = 0;

  const sink: TUsageLogSink = {
    tokenOf(credentials) {
      const parsed = parseProxyUsername(credentials.username);
      const token = parsed && cache.tokenByUsername(parsed.username);
      return token && token.password === credentials.password ? token.id : null;
    },
    closed(conn) {
      const token = cache.tokenById(conn.logTokenId!);
      if (!token || !cache.isUsageLogged(token.userId)) return;
      if (pending.length >= PENDING_MAX) {
        dropped += 1;
        return;
      }
      const endedAt = now();
      const outcome: TUsageLogOutcome = conn.isCut ? 'cut' : conn.endReason ? 'refused' : 'closed';
      pending.push({
        userId: token.userId,
        tokenId: token.id,
        day: dayOf(endedAt),
        protocol: PROTOCOLS[conn.protocol],
        sourceIp: conn.sourceIp,
        targetHost: conn.targetHost,
        targetPort: conn.targetPort,
        startedAt: new Date(Math.min(conn.startedAt, endedAt)),
        endedAt: new Date(endedAt),
        bytesUp: conn.bytesUp,
        bytesDown: conn.bytesDown,
        outcome,
        reason: conn.endReason,
        carrier: conn.carrier ? `${conn.carrier.kind === 'pool' ? 'pool' : 'exit'}:${conn.carrier.id}` : null,
        exitChanged: conn.exitChanged,
        unchargedBytes: conn.bytesUncharged,
      });
    },
  };

  async function flushOnce(): Promise<void> {
    if (unsettled) {
      await writeUsageLog(options.db, unsettled);
      unsettled = null;
    }
    if (pending.length === 0) return;
    const batch: TUsageLogBatch = { id: randomUUID(), rows: pending };
    pending = [];
    unsettled = batch;
    await writeUsageLog(options.db, batch);
    unsettled = null;
  }

  // One flush at a time: a flush asked for while one runs starts after it.
  let flushing: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const run = flushing.catch(() => {}).then(flushOnce);
    flushing = run;
    return run;
  }

  return {
    sink,
    flush,
    /** Rows not written yet, and rows dropped because too many waited. */
    stats: () => ({ pending: pending.length + (unsettled?.rows.length ?? 0), dropped }),
  };
}

/** The usage log type. */
export type TUsageLog = ReturnType<typeof createUsageLog>;
