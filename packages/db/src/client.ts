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
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
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
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    const db = drizzlePglite(pglite, { schema }) as unknown as TDb;
    return { db, kind: 'pglite', pglite, close: () => pglite.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** The embedded database is open in another process (the server, or a command); only one may open it. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${dataDir} is open in process ${pid} (the server?): stop it first, or use PostgreSQL (DATABASE_URL).`);
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
 * Calls `onNotify` for every NOTIFY on `channel`, and once more whenever the
 * listening connection is re-established (a notification may have been lost
 * meanwhile). PGlite: the notifications of this process; PostgreSQL: of every
 * process, on a connection of its own that reconnects after a loss.
 */
export async function listenForNotifications(handle: TDbHandle, channel: string, onNotify: (payload: string) => void): Promise<TUnlisten> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  if (handle.pglite) {
    const unlisten = await handle.pglite.listen(channel, (payload) => onNotify(payload));
    return () => unlisten();
  }
  const pool = handle.pool!;
  let client: pg.PoolClient | undefined;
  let isStopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (isReconnect: boolean): Promise<void> => {
    try {
      const next = await pool.connect();
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      next.on('error', () => lost(next));
      await next.query(`LISTEN ${channel}`);
      if (isStopped) return next.release(true);
      client = next;
      if (isReconnect) onNotify('');
    } catch {
      if (!isStopped) retry = setTimeout(() => void connect(true), 1000);
    }
  };
  const lost = (broken: pg.PoolClient) => {
    if (client !== broken) return;
    client = undefined;
    broken.release(true);
    if (!isStopped) retry = setTimeout(() => void connect(true), 200);
  };
  await connect(false);
  return async () => {
    isStopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    if (current) {
      await current.query(`UNLISTEN ${channel}`).catch(() => {});
      current.release(true);
    }
  };
}
