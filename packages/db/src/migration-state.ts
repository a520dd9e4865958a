import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR, type TDb } from './client';

/** A migration as drizzle records it: its tag (file name) and its time (the journal's `when`). */
export type TMigrationMark = { tag: string; when: number };

let expected: TMigrationMark | undefined;

/** The newest committed migration (the last entry of the journal), read once. */
export function expectedMigration(): TMigrationMark {
  if (!expected) {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
      entries: TMigrationMark[];
    };
    const last = journal.entries[journal.entries.length - 1];
    expected = { tag: last.tag, when: Number(last.when) };
  }
  return expected;
}

/**
 * The time of the newest migration applied to the database (drizzle's
 * `drizzle.__drizzle_migrations.created_at`, the journal's `when` of that
 * migration); null when none was applied.
 */
export async function appliedMigrationAt(db: TDb): Promise<number | null> {
  const result = (await db.execute(
    sql`SELECT max(created_at) AS "at" FROM drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { at: string | number | bigint | null }[] };
  const at = result.rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}
