import path from 'node:path';
import { EmbeddedDatabaseInUseError, migrateDb, openDb } from '@proxy/db';
import { loadServerConfig } from '../../config/env';
import { findUserByEmail } from '../accounts/accounts.repository';
import { updateIsAdmin } from './users.repository';

// npm run admin -- grant EMAIL | revoke EMAIL
// Grants or revokes the operator role on the database the server uses
// (DATABASE_URL, at any time; or the embedded database in DATA_DIR/pg, only
// while the server is stopped: one process may open it, and this says so).

const USAGE = 'usage: npm run admin -- grant EMAIL | revoke EMAIL';

async function main(argv: string[]): Promise<number> {
  const [action, email, ...rest] = argv;
  if ((action !== 'grant' && action !== 'revoke') || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadServerConfig();
  const database = await openDb(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.DATA_DIR, 'pg') },
  );
  try {
    await migrateDb(database);
    const user = await findUserByEmail(database.db, email.trim().toLowerCase());
    if (!user) {
      console.error(`no account with the e-mail ${email}`);
      return 1;
    }
    const isAdmin = action === 'grant';
    await updateIsAdmin(database.db, user.id, isAdmin);
    console.log(`${user.email} (id ${user.id}) ${isAdmin ? 'is an operator now' : 'is no longer an operator'}`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EmbeddedDatabaseInUseError ? error.message : error);
    process.exit(1);
  },
);
