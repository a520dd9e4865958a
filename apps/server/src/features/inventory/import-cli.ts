import { readFileSync } from 'node:fs';
import path from 'node:path';
import { migrateDb, openDb } from '@proxy/db';
import { loadServerConfig } from '../../config/env';
import { importInventory } from './inventory.service';
import type { TExitKind } from './inventory.repository';

// npm run inventory:import -- FILE [--kind residential|datacenter]
// Imports upstream proxies into the database the server uses (DATABASE_URL or
// DATA_DIR/pg). With the embedded database, stop the server first: only one
// process may open PGlite.

const USAGE = 'usage: npm run inventory:import -- FILE [--kind residential|datacenter]';

function parseArgs(argv: string[]): { file: string; kind: TExitKind } {
  let file: string | undefined;
  let kind: TExitKind = 'residential';
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--kind') {
      const value = argv[++i];
      if (value !== 'residential' && value !== 'datacenter')
        throw new Error(`--kind must be residential or datacenter\n${USAGE}`);
      kind = value;
    } else if (arg.startsWith('--kind=')) {
      const value = arg.slice('--kind='.length);
      if (value !== 'residential' && value !== 'datacenter')
        throw new Error(`--kind must be residential or datacenter\n${USAGE}`);
      kind = value;
    } else if (!file) {
      file = arg;
    } else {
      throw new Error(`unexpected argument "${arg}"\n${USAGE}`);
    }
  }
  if (!file) throw new Error(USAGE);
  return { file, kind };
}

async function main(): Promise<number> {
  const { file, kind } = parseArgs(process.argv.slice(2));
  const text = readFileSync(file, 'utf8');
  const config = loadServerConfig();
  const database = await openDb(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.DATA_DIR, 'pg') },
  );
  try {
    await migrateDb(database);
    const result = await importInventory({ db: database.db, config }, text, kind);
    if (result.errors.length > 0) {
      for (const e of result.errors) console.error(`${file}:${e.line}: ${e.message}`);
      console.error(`${result.errors.length} bad line(s): nothing imported`);
      return 1;
    }
    console.log(`imported ${result.imported} ${kind} node(s), skipped ${result.duplicates} duplicate(s)`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
