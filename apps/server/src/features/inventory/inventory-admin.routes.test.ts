import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

// Operators import upstream exits while the server runs (the embedded database admits no second process, so the CLI needs the server stopped).
describe('inventory import by operators', () => {
  const mailer = createMemoryMailer();
  let t: TTestApp;
  let oper: TTestUser;
  let ann: TTestUser;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
  });

  const importCsv = (body: object, token = oper.token) =>
    request(t.app, 'POST', '/admin/inventory/import', { token, body, lang: 'en' });
  const nodesIn = async (country: string) =>
    (await t.db.db.select().from(exitNodes).where(eq(exitNodes.country, country))).length;

  it('checks a file and lists its bad lines by number, importing nothing; a good file imports once', async () => {
    const bad = await importCsv({ csv: '10.9.0.1:3128:u:p,fr,idf,paris\nnonsense\n', kind: 'residential' });
    expect(bad.json().data).toMatchObject({
      imported: 0,
      valid: 1,
      errors: [{ line: 2, message: expect.any(String) }],
    });
    expect(await nodesIn('fr')).toBe(0);

    const csv = '10.9.0.1:3128:u:p,fr,idf,paris\n10.9.0.2:3128:u:p,fr,idf,paris\n';
    const dry = await importCsv({ csv, kind: 'residential', dry_run: true });
    expect(dry.json().data).toEqual({ valid: 2, imported: 0, duplicates: 0, errors: [] });
    expect(await nodesIn('fr')).toBe(0);

    const done = await importCsv({ csv, kind: 'residential' });
    expect(done.json().data).toEqual({ valid: 2, imported: 2, duplicates: 0, errors: [] });
    expect(await nodesIn('fr')).toBe(2);
    const again = await importCsv({ csv, kind: 'residential' });
    expect(again.json().data).toEqual({ valid: 2, imported: 0, duplicates: 2, errors: [] });

    const audit = await request(t.app, 'GET', '/admin/audit/list?route=adminInventoryImport', { token: oper.token });
    expect(audit.json().data.total).toBe(4);
  });

  it('refuses customers, an empty file and an unknown kind', async () => {
    expect((await importCsv({ csv: '10.9.0.3:3128,de', kind: 'residential' }, ann.token)).statusCode).toBe(403);
    const empty = await importCsv({ csv: '  ', kind: 'residential' });
    expect([empty.statusCode, empty.json().data.issues[0].path]).toEqual([400, 'csv']);
    const kind = await importCsv({ csv: '10.9.0.3:3128,de', kind: 'mobile' });
    expect([kind.statusCode, kind.json().data.issues[0].path]).toEqual([400, 'kind']);
    expect(await nodesIn('de')).toBe(0);
  });
});
