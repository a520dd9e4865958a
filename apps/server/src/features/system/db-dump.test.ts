import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DumpImportError,
  exportDump,
  importDump,
  migrateDb,
  openDb,
  usageLogEntries,
  usageLogSettings,
  users,
  workOrderAttachments,
  type TDbHandle,
} from '@proxy/db';
import { createUsageLogPartitionsJob } from '../usage-log/usage-log.jobs';
import { createMemoryMailer, createTestApp, createTestDatabase, type TTestApp } from '../../../test/helpers';
import { buyOk, createAdmin, createUser, creditFen, request, seedProxyStartup } from '../proxies/proxies-test-kit';
import { seedChargeOptions } from '../payments/payments-charge.service';

/** Every row of every table exported, as JSON text in a stable order (to compare two databases). */
async function contentsOf(handle: TDbHandle): Promise<Record<string, string[]>> {
  const tables = (await handle.db.execute(
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  )) as unknown as {
    rows: { name: string }[];
  };
  const out: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const rows = (await handle.db.execute(
      sql`SELECT to_jsonb(t)::text AS row FROM ${sql.identifier(name)} t ORDER BY 1`,
    )) as unknown as {
      rows: { row: string }[];
    };
    out[name] = rows.rows.map((r) => r.row);
  }
  return out;
}

const inThreeDaysOf = (t: TTestApp) =>
  new Date(t.deps.clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);

// Backups and the move off the embedded database: npm run db:export / db:import.
describe('database export and import', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let annToken = '';

  beforeAll(async () => {
    t = await createTestApp({ mailer, config: { PAY_SANDBOX: 'true' } });
    await seedProxyStartup(t.deps);
    await seedChargeOptions(t.deps);
    const oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    const ann = await createUser(t.app, mailer, 'ann');
    annToken = ann.token;
    await creditFen(t.deps, ann.userId, 50_000);
    await buyOk(t.app, ann.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 2, days: 30 });
    await request(t.app, 'POST', `/admin/users/${ann.userId}/balance`, {
      token: oper.token,
      body: { kind: 'credit', amount: '12.34', reason: "O'Brien's \\\\ refund", request_id: 'dump-adjust-0001' },
    });
    await request(t.app, 'POST', '/pay/charge/sandbox/100', { token: ann.token });
    // Usage log rows in day partitions (the partitioned table) and one waiting in the default partition.
    const proxies = (await t.db.db.execute(
      sql`SELECT id::int AS id FROM proxy_tokens WHERE user_id = ${ann.userId} ORDER BY id LIMIT 1`,
    )) as unknown as {
      rows: { id: number }[];
    };
    const annsProxy = proxies.rows[0];
    await t.db.db.insert(usageLogSettings).values({ userId: ann.userId, enabled: true, retentionDays: 3 });
    const today = t.deps.clock.now().toISOString().slice(0, 10);
    const logRow = (expiresOn: string, bytesUp: number) => ({
      userId: ann.userId,
      tokenId: annsProxy.id,
      day: today,
      expiresOn,
      protocol: 'connect' as const,
      sourceIp: '203.0.113.7',
      targetHost: 'example.com',
      targetPort: 443,
      startedAt: new Date(),
      endedAt: new Date(),
      bytesUp,
      bytesDown: 2,
      outcome: 'closed' as const,
    });
    const inThreeDays = new Date(Date.parse(`${today}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    await t.db.db.insert(usageLogEntries).values(logRow(inThreeDays, 1));
    await createUsageLogPartitionsJob(t.deps).runOnce();
    await t.db.db.insert(usageLogEntries).values([logRow(inThreeDays, 2), logRow('2099-01-01', 3)]);
    await t.db.db.insert(workOrderAttachments).values({
      userId: ann.userId,
      filename: 'a.png',
      contentType: 'image/png',
      sizeBytes: 4,
      data: Buffer.from([0x89, 0x50, 0x00, 0xff]),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('moves every row, byte and sequence to a new database, embedded or PostgreSQL, and back', async () => {
    const original = await contentsOf(t.db);
    expect(original.users.length).toBe(2);
    expect(original.ledger_entries.length).toBeGreaterThan(2);
    const dump = await exportDump(t.db, 3);
    expect(dump.script.startsWith('-- proxyhub dump migrations=')).toBe(true);
    expect(dump.rows.proxy_tokens).toBe(2);
    expect(original[`usage_log_entries_p${inThreeDaysOf(t).replace(/-/g, '')}`]).toHaveLength(2);
    expect(original.usage_log_entries_default).toHaveLength(1);

    // Through an embedded database, into a fresh database of the suite's kind (on PostgreSQL: embedded to PostgreSQL, the move off it).
    const embedded = await openDb();
    try {
      await migrateDb(embedded);
      await importDump(embedded, dump.script);
      expect(await contentsOf(embedded)).toEqual(original);
      const again = await exportDump(embedded);
      const target = await createTestDatabase();
      try {
        await importDump(target, again.script);
        expect(await contentsOf(target)).toEqual(original);
        // The server started on the moved database answers the customer as before: account, balance, proxies, statement.
        const moved = await createTestApp({ mailer, database: target, config: { PAY_SANDBOX: 'true' } });
        try {
          for (const path of [
            '/user/info',
            '/token/list/isp/static?page=1&page_size=10',
            '/pay/ledger/list?page=1&page_size=20',
            '/pay/record/list?page=1&page_size=10',
          ]) {
            const before = await request(t.app, 'GET', path, { token: annToken });
            const after = await request(moved.app, 'GET', path, { token: annToken });
            expect(before.json().code, `${path}: ${before.body}`).toBe(0);
            expect(after.json(), path).toEqual(before.json());
          }
        } finally {
          await moved.close();
        }
        // Sequences moved past the imported ids: a new account gets a new id.
        const [created] = await target.db
          .insert(users)
          .values({ username: 'new', email: 'new@example.com', apiKey: 'k-new', inviteCode: 'NEW12345' })
          .returning();
        expect(created.id).toBeGreaterThan(Math.max(...original.users.map((u) => JSON.parse(u).id as number)));
        // A database with accounts takes no dump.
        await expect(importDump(target, again.script)).rejects.toBeInstanceOf(DumpImportError);
      } finally {
        await target.close();
      }
    } finally {
      await embedded.close();
    }
  });

  it('refuses what is not a dump, and a dump of another schema version, changing nothing', async () => {
    const target = await openDb();
    try {
      await migrateDb(target);
      await expect(importDump(target, 'DROP TABLE users;')).rejects.toThrow('not a proxyhub dump');
      const dump = await exportDump(t.db);
      await expect(importDump(target, dump.script.replace(/migrations=\d+/, 'migrations=1'))).rejects.toThrow(
        'taken at migration 1',
      );
      expect((await contentsOf(target)).users).toEqual([]);
    } finally {
      await target.close();
    }
  });
});
