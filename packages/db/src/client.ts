import { fileURLToPath } from 'node:url';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

/** The schema object. */
export type TSchema = typeof schema;
/** A Drizzle database over either driver. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;
/** A transaction handle (what services pass to repositories inside a transaction). */
export type TTx = PgTransaction<PgQueryResultHKT, TSchema, ExtractTablesWithRelations<TSchema>>;
/** A database or a transaction: repositories accept either. */
export type TDbOrTx = TDb | TTx;

/** An open database and how to close it. */
export type TDbHandle = {
  db: TDb;
  /** "pglite" (embedded, one process) or "postgres" (server, many processes). */
  kind: 'pglite' | 'postgres';
  /** Raw PGlite instance (embedded mode only). */
  pglite?: PGlite;
  /** Raw pool (PostgreSQL mode only). */
  pool?: pg.Pool;
  /** The server's URL (PostgreSQL mode only): connections of their own (a change feed) are opened with it. */
  url?: string;
  /**
   * How many queries this process's pool has seen answered (PostgreSQL; always 0
   * on PGlite, whose notifications are delivered before the statement that
   * caused them returns). A change feed catches up after each new one.
   */
  settledQueries(): number;
  close(): Promise<void>;
};

/** Where to find the database. */
export type TDbOptions = {
  /** postgres://... URL: PostgreSQL server. When unset, PGlite is used. */
  url?: string;
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string;
  /** PGlite dump (from dumpDataDir) to start from: tests copy a migrated template this way. */
  loadDataDir?: Blob | File;
  /** PostgreSQL pool size. */
  poolSize?: number;
};

/** Folder of the committed SQL migrations. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

// bigint columns come back as strings from node-postgres; our values fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens PGlite or PostgreSQL. */
export async function openDb(options: TDbOptions = {}): Promise<TDbHandle> {
  if (options.url) {
    let settled = 0;
    const pool = new GuardedPool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      Client: countingClient(() => (settled += 1)),
    });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it.
    });
    pool.on('connect', (client) => {
      // A connection lost while a client is checked out (terminated, failover) fails the query in flight;
      // its 'error' event, which nothing else listens to then, must not end the process. Released, the
      // broken client is dropped by the pool.
      client.on('error', () => {});
    });
    const db = drizzlePg(pool, { schema }) as unknown as TDb;
    return { db, kind: 'postgres', pool, url: options.url, settledQueries: () => settled, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    const db = drizzlePglite(pglite, { schema }) as unknown as TDb;
    return { db, kind: 'pglite', pglite, settledQueries: () => 0, close: () => pglite.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * A pool that never loses a client whose connection ends while it is checked out. Drizzle's transaction() sends
 * BEGIN before its try/finally: when the connection dies between the checkout and BEGIN (a failover, a restart of
 * the server, a cut network), the client is never released, the pool counts it for ever (one connection fewer each
 * time) and end() waits for it for ever. Here a checked-out client whose connection ends is released with an error
 * (the pool drops it), and a second release (the holder's own, later) is a no-op.
 */
class GuardedPool extends pg.Pool {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override connect(callback?: any): any {
    if (typeof callback === 'function') {
      return super.connect((error, client, done) => {
        if (error || !client) return callback(error, client, done);
        const guarded = guardRelease(client);
        callback(undefined, guarded, guarded.release);
      });
    }
    return super.connect().then(guardRelease);
  }
}

function guardRelease(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let isReleased = false;
  const onEnd = () => guarded(new Error('the connection ended while the client was checked out'));
  const guarded = (error?: Error | boolean) => {
    if (isReleased) return;
    isReleased = true;
    client.off('end', onEnd);
    release(error);
  };
  client.release = guarded;
  client.once('end', onEnd);
  return client;
}

/**
 * A pg Client that counts its answered queries (whatever their form: promise,
 * callback, or a submittable such as a COPY stream, counted when it ends).
 */
function countingClient(onSettled: () => void): typeof pg.Client {
  return class CountingClient extends pg.Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (...results: unknown[]) => {
          onSettled();
          return (last as (...r: unknown[]) => unknown)(...results);
        };
        return (super.query as (...a: unknown[]) => unknown)(...args);
      }
      const answer = (super.query as (...a: unknown[]) => unknown)(...args) as
        { then?: unknown; once?: unknown } | undefined;
      if (answer && typeof answer.then === 'function') {
        (answer as Promise<unknown>).then(onSettled, onSettled);
      } else if (answer && typeof answer.once === 'function') {
        const stream = answer as NodeJS.EventEmitter;
        let isCounted = false;
        const count = () => {
          if (!isCounted) onSettled();
          isCounted = true;
        };
        stream.once('end', count);
        stream.once('finish', count);
        stream.once('error', count);
      } else {
        onSettled();
      }
      return answer;
    }
  } as unknown as typeof pg.Client;
}

/** The embedded database is open in another process (the server, or a command); only one may open it. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is open in process ${pid} (the server?): stop it first, or use PostgreSQL (DATABASE_URL).`,
    );
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite admits one process per data folder, and a second one would corrupt
 * it: a lock file beside the folder names the process that has it open. A
 * lock left by a process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  if (OPEN_DATA_DIRS.has(lockFile)) throw new EmbeddedDatabaseInUseError(dataDir, process.pid);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      OPEN_DATA_DIRS.add(lockFile);
      return () => {
        OPEN_DATA_DIRS.delete(lockFile);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      // Our own pid in a lock we do not hold: left by an earlier run that had the same pid (a container's pid 1).
      const isHeld = Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder);
      if (isHeld) throw new EmbeddedDatabaseInUseError(dataDir, holder);
      rmSync(lockFile, { force: true });
    }
  }
  throw new EmbeddedDatabaseInUseError(dataDir, -1);
}

// Data folders this process has open (a second opening here is refused as well).
const OPEN_DATA_DIRS = new Set<string>();

/** Applies the committed migrations (idempotent). */
export async function migrateDb(handle: TDbHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    await migratePg(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  } else {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}

/** Stops listening. */
export type TUnlisten = () => Promise<void>;

/**
 * Calls `onNotify` for every NOTIFY on `channel`, and once more (with '')
 * whenever the listening connection is re-established (a notification may
 * have been lost meanwhile). PGlite: the notifications of this process;
 * PostgreSQL: of every process, on a connection of its own (openChangeFeed).
 */
export async function listenForNotifications(
  handle: TDbHandle,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<TUnlisten> {
  let isOpening = true;
  const feed = await openChangeFeed(handle, channel, {
    onNotify,
    onLive: (isLive) => {
      if (isLive && !isOpening) onNotify('');
    },
  });
  isOpening = false;
  return () => feed.close();
}

/** A LISTEN on one channel that can tell when it has caught up (see openChangeFeed). */
export type TChangeFeed = {
  /** False while the listening connection is down: notifications may be missed meanwhile. */
  isLive(): boolean;
  /**
   * Resolves true once every notification committed before the call has been
   * handed to `onNotify`; false if the connection was lost meanwhile.
   */
  catchUp(): Promise<boolean>;
  close(): Promise<void>;
};

const SYNC_PREFIX = 'sync:';
// How long a catch-up may wait for its own notification before the connection is taken as lost.
const CATCH_UP_TIMEOUT_MS = 5000;

/**
 * Listens on `channel` on a connection of its own (outside the pool). A loss
 * calls `onLive(false)`; the feed reconnects and calls `onLive(true)` once
 * listening again (what was committed meanwhile was not seen). PGlite: the
 * notifications of this process, delivered before the statement that caused
 * them returns, so the feed is always caught up.
 */
export async function openChangeFeed(
  handle: TDbHandle,
  channel: string,
  events: { onNotify: (payload: string) => void; onLive: (isLive: boolean) => void },
): Promise<TChangeFeed> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  if (handle.pglite) {
    const unlisten = await handle.pglite.listen(channel, (payload) => events.onNotify(payload));
    return { isLive: () => true, catchUp: async () => true, close: () => unlisten() };
  }
  let client: pg.Client | undefined;
  let isStopped = false;
  let retry: NodeJS.Timeout | undefined;
  let syncCount = 0;
  // Waiters of catchUp, by the payload of their sync notification.
  const waiters = new Map<string, (isCaughtUp: boolean) => void>();
  const failWaiters = () => {
    for (const resolve of waiters.values()) resolve(false);
    waiters.clear();
  };
  const lost = (broken: pg.Client) => {
    if (client !== broken) return;
    client = undefined;
    failWaiters();
    events.onLive(false);
    broken.end().catch(() => {});
    if (!isStopped) retry = setTimeout(() => void connect(), 200);
  };
  const connect = async (): Promise<void> => {
    // Named (unless PGAPPNAME names the process's connections), so an operator or a test can find it in pg_stat_activity.
    const next = new pg.Client({
      connectionString: handle.url,
      application_name: process.env.PGAPPNAME ?? `${channel}-feed`,
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(SYNC_PREFIX)) {
        waiters.get(payload)?.(true);
        waiters.delete(payload);
        return;
      }
      events.onNotify(payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      next.end().catch(() => {});
      if (!isStopped) retry = setTimeout(() => void connect(), 1000);
      return;
    }
    if (isStopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    events.onLive(true);
  };
  await connect();
  return {
    isLive: () => client !== undefined,
    // Notifications reach a listener in commit order: once its own arrives, every earlier one has.
    catchUp: () => {
      const current = client;
      if (!current) return Promise.resolve(false);
      syncCount += 1;
      const payload = `${SYNC_PREFIX}${syncCount}`;
      const arrived = new Promise<boolean>((resolve) => {
        // A connection that stopped answering without an error (half-open) must not hold requests: given up as lost.
        // setImmediate: after an event loop blocked past the timeout, the answer already read from the socket is handled first.
        const timer = setTimeout(
          () =>
            setImmediate(() => {
              if (waiters.get(payload) === settle) lost(current);
            }),
          CATCH_UP_TIMEOUT_MS,
        );
        timer.unref();
        const settle = (isCaughtUp: boolean) => {
          clearTimeout(timer);
          resolve(isCaughtUp);
        };
        waiters.set(payload, settle);
      });
      current.query('SELECT pg_notify($1, $2)', [channel, payload]).catch(() => lost(current));
      return arrived;
    },
    close: async () => {
      isStopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      failWaiters();
      if (current) await current.end().catch(() => {});
    },
  };
}
