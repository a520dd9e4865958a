import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { TDbHandle } from './client';
import * as schema from './schema';

/**
 * A whole database as one PostgreSQL script: each table's rows as JSON in an
 * `INSERT ... SELECT * FROM jsonb_populate_recordset(...)`, parents before
 * children, then every id sequence moved past its rows (partitioned tables'
 * partitions are made first, by name and bounds); it refuses to run
 * over a database that has accounts, and replaces what migrations seeded. Both the embedded
 * database and PostgreSQL write it; `importDump` (or `psql -f`) reads it into
 * a migrated, empty PostgreSQL database. The header names the migrations it
 * was taken at, so an import into another schema version is refused.
 */

const HEADER = '-- proxyhub dump';

type TTableInfo = { name: string; hasSerialId: boolean; parents: string[] };

function tablesInInsertOrder(): TTableInfo[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);
  const infos = new Map<string, TTableInfo>();
  for (const table of tables) {
    const config = getTableConfig(table);
    const parents = config.foreignKeys
      .map((fk) => getTableConfig(fk.reference().foreignTable).name)
      .filter((p) => p !== config.name);
    const id = config.columns.find((c) => c.name === 'id');
    infos.set(config.name, {
      name: config.name,
      hasSerialId: id?.columnType === 'PgBigSerial64' || id?.columnType === 'PgBigSerial53',
      parents,
    });
  }
  // Parents first (foreign keys), otherwise the schema's order.
  const ordered: TTableInfo[] = [];
  const placed = new Set<string>();
  const place = (info: TTableInfo) => {
    if (placed.has(info.name)) return;
    placed.add(info.name);
    for (const parent of info.parents) place(infos.get(parent)!);
    ordered.push(info);
  };
  for (const info of infos.values()) place(info);
  return ordered;
}

// A text as an SQL string literal (standard_conforming_strings: only quotes double).
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function rowsOf(handle: TDbHandle, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  const result = (await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows;
}

async function migrationCount(handle: TDbHandle): Promise<number> {
  const [row] = await rowsOf(handle, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
  return Number(row.n);
}

/** The database as a PostgreSQL script (see above); `rowsPerStatement` bounds one statement's JSON. */
export async function exportDump(
  handle: TDbHandle,
  rowsPerStatement = 500,
): Promise<{ script: string; rows: Record<string, number> }> {
  const tables = tablesInInsertOrder();
  const lines = [
    `${HEADER} migrations=${await migrationCount(handle)}`,
    'BEGIN;',
    // Never over a database in use; the rows a migration seeds (gateway state, defaults) give way to the dump's.
    "DO $$ BEGIN IF EXISTS (SELECT 1 FROM users) THEN RAISE EXCEPTION 'this database already has accounts: import into a new, empty database'; END IF; END $$;",
    `TRUNCATE ${tables.map((t) => `"${t.name}"`).join(', ')};`,
  ];
  // Partitioned tables (usage_log_entries): their partitions first, with the same names and bounds, so each row
  // goes back into the partition it came from (the migration made only the DEFAULT one).
  for (const table of tables) {
    const partitions = await rowsOf(
      handle,
      sql`SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
          WHERE p.relname = ${table.name} AND p.relnamespace = to_regnamespace(current_schema()) AND c.relispartition
          ORDER BY c.relname`,
    );
    for (const { name, bound } of partitions) {
      lines.push(`CREATE TABLE IF NOT EXISTS "${String(name)}" PARTITION OF "${table.name}" ${String(bound)};`);
    }
  }
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const rows = await rowsOf(handle, sql`SELECT to_jsonb(t) AS row FROM ${sql.identifier(table.name)} t ORDER BY 1`);
    counts[table.name] = rows.length;
    for (let i = 0; i < rows.length; i += rowsPerStatement) {
      const json = JSON.stringify(
        rows.slice(i, i + rowsPerStatement).map((r) => (typeof r.row === 'string' ? JSON.parse(r.row) : r.row)),
      );
      lines.push(
        `INSERT INTO "${table.name}" SELECT * FROM jsonb_populate_recordset(NULL::"${table.name}", ${literal(json)}::jsonb);`,
      );
    }
    if (table.hasSerialId) {
      lines.push(
        `SELECT setval(pg_get_serial_sequence('"${table.name}"', 'id'), COALESCE(max(id), 1), max(id) IS NOT NULL) FROM "${table.name}";`,
      );
    }
  }
  lines.push('COMMIT;', '');
  return { script: lines.join('\n'), rows: counts };
}

/** Why an import was refused. */
export class DumpImportError extends Error {}

/**
 * Reads a dump into a migrated database that holds no accounts yet, in one
 * transaction (all or nothing). Refuses a dump of another schema version and
 * a database that already has accounts.
 */
export async function importDump(handle: TDbHandle, script: string): Promise<void> {
  const header = /^-- proxyhub dump migrations=(\d+)\n/.exec(script);
  if (!header) throw new DumpImportError('not a proxyhub dump (npm run db:export writes one)');
  const here = await migrationCount(handle);
  if (Number(header[1]) !== here) {
    throw new DumpImportError(
      `the dump was taken at migration ${header[1]}, this database is at ${here}: export and import with the same version`,
    );
  }
  const [accounts] = await rowsOf(handle, sql`SELECT count(*)::int AS n FROM users`);
  if (Number(accounts.n) > 0)
    throw new DumpImportError('this database already has accounts: import into a new, empty database');
  const body = script.slice(header[0].length);
  if (handle.kind === 'postgres') {
    // One simple-protocol query: the script's own BEGIN and COMMIT make it one transaction.
    await handle.pool!.query(body);
  } else {
    await handle.pglite!.exec(body);
  }
}
