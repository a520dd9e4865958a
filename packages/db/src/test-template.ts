import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateDb, openDb, type TDbHandle } from './client';

/**
 * Test databases with the real migrations, shared by the server and gateway
 * suites: migrate once per run into a template, then give each test file a
 * copy (a PGlite dump, or a PostgreSQL database made from a template database).
 */

/** What the run-wide setup hands to test files. */
export type TTestTemplate = { pgliteTemplate: string; pgTemplate: string };

/** Migrates the template; returns it and a teardown. Uses DATABASE_URL when set. */
export async function prepareTestTemplate(): Promise<{ template: TTestTemplate; teardown: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `proxy_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const handle = await openDb({ url: target.toString(), poolSize: 1 });
    await migrateDb(handle);
    await handle.close();
    return {
      template: { pgTemplate: name, pgliteTemplate: '' },
      async teardown() {
        // Copies a test left open (made in the worker processes, named after this template).
        const { rows } = await admin.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
          [`${name}_t`],
        );
        for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const handle = await openDb();
  await migrateDb(handle);
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'proxy-pglite-')), 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return { template: { pgliteTemplate: file, pgTemplate: '' }, teardown: async () => {} };
}

let counter = 0;

/** A fresh database copied from the template; close() also drops a PostgreSQL copy. */
export async function createDatabaseFromTemplate(
  template: TTestTemplate,
  options: { poolSize?: number } = {},
): Promise<TDbHandle & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // Named after the template, so the run's teardown drops any copy a test left open.
    const name = `${template.pgTemplate}_t${process.pid}_${counter++}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.pgTemplate}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const handle = await openDb({ url: target.toString(), poolSize: options.poolSize ?? 20 });
    return {
      ...handle,
      url: target.toString(),
      async close() {
        await handle.close();
        const drop = new pg.Client({ connectionString: url });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  return openDb({ loadDataDir: new Blob([readFileSync(template.pgliteTemplate)]) });
}
