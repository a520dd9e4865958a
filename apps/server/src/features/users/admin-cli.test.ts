import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDb, openDb, users } from '@proxy/db';

const ROOT = fileURLToPath(new URL('../../../../..', import.meta.url));

/** Runs `npm run admin -- ...args` (the script's command) on the data folder; resolves its exit code and output. */
function runAdminCli(dataDir: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/features/users/admin-cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run admin', () => {
  // Six processes each start and open the embedded database: minutes on a loaded machine.
  it('grants and revokes the operator role on the embedded database, and says to stop the server while it is open', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-admin-cli-'));
    const database = await openDb({ dataDir: path.join(dataDir, 'pg') });
    try {
      await migrateDb(database);
      await database.db
        .insert(users)
        .values({ username: 'olga', email: 'olga@example.com', apiKey: 'k-olga', inviteCode: 'OLGA1234' });
      // The server (here: this test) has the database open: the command refuses and says why.
      const busy = await runAdminCli(dataDir, ['grant', 'olga@example.com']);
      expect(busy.code).toBe(1);
      expect(busy.output).toContain('stop it first');
    } finally {
      await database.close();
    }

    const granted = await runAdminCli(dataDir, ['grant', 'Olga@Example.com']);
    expect(granted.output).toContain('olga@example.com');
    expect(granted.code).toBe(0);
    const unknown = await runAdminCli(dataDir, ['grant', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('no account with the e-mail nobody@example.com');
    expect((await runAdminCli(dataDir, ['promote', 'olga@example.com'])).code).toBe(2);

    const isAdmin = async () => {
      const reopened = await openDb({ dataDir: path.join(dataDir, 'pg') });
      try {
        const [row] = await reopened.db
          .select({ isAdmin: users.isAdmin })
          .from(users)
          .where(eq(users.email, 'olga@example.com'));
        return row.isAdmin;
      } finally {
        await reopened.close();
      }
    };
    expect(await isAdmin()).toBe(true);
    expect((await runAdminCli(dataDir, ['revoke', 'olga@example.com'])).code).toBe(0);
    expect(await isAdmin()).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  }, 300_000);
});
