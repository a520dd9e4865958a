import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DumpImportError, EmbeddedDatabaseInUseError, exportDump, importDump, migrateDb, openDb } from '@proxy/db';
import { loadServerConfig } from '../../config/env';

// npm run db:export -- FILE   the server's database (DATABASE_URL, or the embedded one in DATA_DIR/pg) to FILE
// npm run db:import -- FILE   FILE into the database of DATABASE_URL (migrated, without accounts)
// The embedded database admits one process: stop the server before exporting it.

const USAGE = 'usage: npm run db:export -- FILE | npm run db:import -- FILE';

async function main(argv: string[]): Promise<number> {
  const [action, file, ...rest] = argv;
  if ((action !== 'export' && action !== 'import') || !file || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadServerConfig();
  if (action === 'import' && !config.DATABASE_URL) {
    console.error('db:import writes into PostgreSQL: set DATABASE_URL to the new, empty database');
    return 2;
  }
  const script = action === 'import' ? readFileSync(file, 'utf8') : '';
  const database = await openDb(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.DATA_DIR, 'pg') },
  );
  try {
    await migrateDb(database);
    if (action === 'export') {
      const dump = await exportDump(database);
      writeFileSync(file, dump.script);
      const total = Object.values(dump.rows).reduce((a, b) => a + b, 0);
      console.log(
        `exported ${total} rows of ${Object.keys(dump.rows).length} tables to ${file} (users: ${dump.rows.users ?? 0})`,
      );
    } else {
      await importDump(database, script);
      console.log(`imported ${file}; start the server with this DATABASE_URL`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const isExplained = error instanceof EmbeddedDatabaseInUseError || error instanceof DumpImportError;
    console.error(isExplained ? (error as Error).message : error);
    process.exit(1);
  },
);
