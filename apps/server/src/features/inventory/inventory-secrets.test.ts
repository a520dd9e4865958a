import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createSecretBox, EXIT_PASSWORD_PURPOSE, exitNodes } from '@proxy/db';
import { createTestDatabase } from '@proxy/db/testing';
import { buildApp } from '../../app';
import { captureLog, createMemoryMailer, createTestConfig } from '../../../test/helpers';
import { createAdmin, request, type TTestUser } from '../proxies/proxies-test-kit';
import { startLocalEcho, startLocalUpstream, type TLocalUpstream } from './inventory-probe-test-kit';
import { openExitPassword, sealPlainExitPasswords } from './inventory-secrets';

// Upstream exit passwords are written sealed by the import and the operator's edit, opened only to dial, and
// never answered, audited or logged.
describe('upstream exit passwords at rest', () => {
  const password = 'Pw-recognisable-4417';
  const edited = 'Pw-edited-recognisable-9021';
  const { stream, lines } = captureLog();
  const mailer = createMemoryMailer();
  const answers: string[] = [];
  let built: Awaited<ReturnType<typeof buildApp>>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let upstream: TLocalUpstream;
  let echo: Awaited<ReturnType<typeof startLocalEcho>>;
  let oper: TTestUser;

  const call = async (method: 'GET' | 'PUT' | 'POST', path: string, body?: object) => {
    const res = await request(built.app, method, path, { token: oper.token, body, lang: 'en' });
    answers.push(res.body);
    return res;
  };
  const rows = () => database.db.select().from(exitNodes).where(eq(exitNodes.port, upstream.port));

  beforeAll(async () => {
    upstream = await startLocalUpstream({ localAddress: '127.0.0.7', username: 'u', password });
    echo = await startLocalEcho();
    database = await createTestDatabase();
    built = await buildApp({
      config: createTestConfig({ INVENTORY_PROBE_URL: echo.url, INVENTORY_PROBE_TIMEOUT_MS: '5000' }),
      database,
      mailer,
      logger: { level: 'debug', stream },
    });
    await built.app.ready();
    oper = await createAdmin(built.app, built.deps, mailer, 'oper');
  });
  afterAll(async () => {
    await built?.app.close();
    await database?.close();
    await upstream?.close();
    await echo?.close();
  });

  it('imports and edits store the password sealed; the probe dials with it; nothing answers, audits or logs it', async () => {
    const imported = await call('POST', '/admin/inventory/import', {
      csv: `127.0.0.1:${upstream.port}:u:${password},de,be,Berlin\n`,
      kind: 'residential',
    });
    expect(imported.json().data).toMatchObject({ imported: 1 });
    const [row] = await rows();
    expect(row.password).toMatch(/^enc:v1:/);
    expect(row.password).not.toContain(password);
    expect(createSecretBox(built.deps.config.dataEncryptionKey).open(row.password!, EXIT_PASSWORD_PURPOSE).plain).toBe(
      password,
    );

    // The probe opens it to dial: the upstream takes the credentials.
    const probed = await call('POST', `/admin/inventory/nodes/${row.id}/probe`);
    expect(probed.json().data).toMatchObject({ health: 'up', exit_ip: '127.0.0.7', has_password: true });
    await call('GET', '/admin/inventory/nodes?keyword=127.0.0.1');

    const base = { country: 'de', state: 'be', city: 'Berlin', host: '127.0.0.1', port: upstream.port, username: 'u' };
    // The same password typed again is no new endpoint: what the probe found stays.
    const same = await call('PUT', `/admin/inventory/nodes/${row.id}`, { ...base, password, status: 'active' });
    expect(same.json().data).toMatchObject({ health: 'up' });
    expect((await rows())[0].password).toBe(row.password);
    const changed = await call('PUT', `/admin/inventory/nodes/${row.id}`, {
      ...base,
      password: edited,
      status: 'active',
    });
    expect(changed.json().data).toMatchObject({ health: 'unknown', has_password: true });
    const [after] = await rows();
    expect(after.password).toMatch(/^enc:v1:/);
    expect(openExitPassword(built.deps, after.password)).toBe(edited);
    // A refused edit (the upstream's password is now wrong) and the audit list answered too.
    const down = await call('POST', `/admin/inventory/nodes/${row.id}/probe`);
    expect(down.json().data).toMatchObject({ probe_failures: expect.any(Number), probe_error: expect.any(String) });
    await call('GET', '/admin/audit/list?page_size=200');

    const audit = JSON.stringify(await database.db.select().from(auditEntries));
    expect(audit).toContain('adminInventoryImport');
    expect(audit).toContain('adminInventoryNodeUpdate');
    for (const secret of [password, edited]) {
      for (const answer of answers) expect(answer).not.toContain(secret);
      expect(audit).not.toContain(secret);
      expect(lines.join('')).not.toContain(secret);
    }
    // The log did record the calls.
    expect(lines.join('')).toContain('/api/admin/inventory/import');
  });

  it('the start-up pass seals passwords stored in the clear before, once, and they still open', async () => {
    const [node] = await database.db
      .insert(exitNodes)
      .values({
        kind: 'residential',
        egress: 'http',
        host: '10.66.0.1',
        port: 3128,
        username: 'old',
        password: 'plain-1',
        country: 'fr',
      })
      .returning();
    expect(await sealPlainExitPasswords(built.deps)).toBe(1);
    const [row] = await database.db.select().from(exitNodes).where(eq(exitNodes.id, node.id));
    expect(row.password).toMatch(/^enc:v1:/);
    expect(openExitPassword(built.deps, row.password)).toBe('plain-1');
    expect(await sealPlainExitPasswords(built.deps)).toBe(0);
    const plain = await database.db.execute(
      sql`SELECT count(*)::int AS n FROM exit_nodes WHERE password IS NOT NULL AND password <> '' AND password NOT LIKE 'enc:v1:%'`,
    );
    expect((plain as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it('a password sealed under another key fails the probe with a reason naming the setting, not the password', async () => {
    const other = createSecretBox(Buffer.alloc(32, 9)).seal('foreign-secret', EXIT_PASSWORD_PURPOSE);
    const [node] = await database.db
      .insert(exitNodes)
      .values({
        kind: 'residential',
        egress: 'http',
        host: '127.0.0.1',
        port: upstream.port,
        username: 'x',
        password: other,
        country: 'it',
      })
      .returning();
    const res = await call('POST', `/admin/inventory/nodes/${node.id}/probe`);
    expect(res.json().data.probe_error).toMatch(/another DATA_ENCRYPTION_KEY/);
    expect(res.body).not.toContain('foreign-secret');
  });
});
