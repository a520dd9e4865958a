import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitNodes } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestConfig, itOnPglite } from '../../../test/helpers';
import { readGatewayVersion } from '../gateway/gateway-state.repository';
import { createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { parseInventoryCsv } from './inventory-csv';
import { importInventory, seedDirectNodes } from './inventory.service';

describe('inventory CSV parsing', () => {
  it('reads host:port:user:pass with an optional scheme, optional credentials and area slugs', () => {
    const { nodes, errors } = parseInventoryCsv(
      [
        '# operator file',
        '1.2.3.4:8080:bob:s3cret,US,CA,Los Angeles',
        'socks5://proxy.example.com:1080,de,be,berlin',
        'http://5.6.7.8:3128:u:p:with:colons,jp,,',
        '[2001:db8::1]:1080:u:p,gb',
        '',
      ].join('\n'),
      'residential',
    );
    expect(errors).toEqual([]);
    expect(nodes).toEqual([
      {
        kind: 'residential',
        egress: 'http',
        host: '1.2.3.4',
        port: 8080,
        username: 'bob',
        password: 's3cret',
        country: 'us',
        state: 'ca',
        city: 'losangeles',
        stateName: 'CA',
        cityName: 'Los Angeles',
      },
      {
        kind: 'residential',
        egress: 'socks5',
        host: 'proxy.example.com',
        port: 1080,
        username: null,
        password: null,
        country: 'de',
        state: 'be',
        city: 'berlin',
        stateName: 'be',
        cityName: 'berlin',
      },
      {
        kind: 'residential',
        egress: 'http',
        host: '5.6.7.8',
        port: 3128,
        username: 'u',
        password: 'p:with:colons',
        country: 'jp',
        state: '',
        city: '',
        stateName: '',
        cityName: '',
      },
      {
        kind: 'residential',
        egress: 'http',
        host: '2001:db8::1',
        port: 1080,
        username: 'u',
        password: 'p',
        country: 'gb',
        state: '',
        city: '',
        stateName: '',
        cityName: '',
      },
    ]);
  });

  it('reports every bad line with its number', () => {
    const { errors } = parseInventoryCsv(
      [
        '1.2.3.4:8080,us',
        'ftp://1.2.3.4:21,us',
        '1.2.3.4:0,us',
        '1.2.3.4:80,zz',
        '1.2.3.4:80:onlyuser,us',
        'no-port,us',
        '1.2.3.4:80,us,new-york',
        '1.2.3.4:80,us,,city',
      ].join('\n'),
      'datacenter',
    );
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(errors[0].message).toContain('scheme');
    expect(errors[2].message).toContain('country');
  });
});

describe('inventory import and areas', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let user: TTestUser;
  beforeAll(async () => {
    t = await createTestApp({
      mailer,
      config: { DIRECT_EXIT_COUNTRY: 'us', DIRECT_EXIT_STATE: 'ca', DIRECT_EXIT_CITY: 'losangeles' },
    });
    user = await createUser(t.app, mailer, 'opal');
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds one direct node per kind in the configured area, once', async () => {
    expect(await seedDirectNodes(t.deps)).toEqual({ created: 2, relabelled: 0 });
    expect(await seedDirectNodes(t.deps)).toEqual({ created: 0, relabelled: 0 });
    const nodes = await t.db.db.select().from(exitNodes).orderBy(asc(exitNodes.id));
    expect(nodes.map((n) => [n.kind, n.egress, n.country, n.state, n.city])).toEqual([
      ['residential', 'direct', 'us', 'ca', 'losangeles'],
      ['datacenter', 'direct', 'us', 'ca', 'losangeles'],
    ]);
    // A changed configuration relabels them honestly.
    const moved = {
      ...t.deps,
      config: { ...t.deps.config, DIRECT_EXIT_COUNTRY: 'de', DIRECT_EXIT_STATE: '', DIRECT_EXIT_CITY: '' },
    };
    expect(await seedDirectNodes(moved)).toEqual({ created: 0, relabelled: 2 });
    expect(await seedDirectNodes(t.deps)).toEqual({ created: 0, relabelled: 2 });
  });

  it('imports a good file, skips duplicates, and bumps the gateway version', async () => {
    const version = await readGatewayVersion(t.db.db);
    const file =
      'socks5://10.1.0.1:1080:u:p,us,ca,San Francisco\n10.1.0.2:3128,us,ny,newyork\n10.1.0.3:3128,us,ny,newyork\n';
    expect(await importInventory(t.deps, file, 'residential')).toEqual({ imported: 3, duplicates: 0, errors: [] });
    expect(await readGatewayVersion(t.db.db)).toBeGreaterThan(version);
    expect(await importInventory(t.deps, `${file}10.1.0.4:3128,jp\n`, 'residential')).toEqual({
      imported: 1,
      duplicates: 3,
      errors: [],
    });
    // The same endpoint as data-center inventory is another node.
    expect(await importInventory(t.deps, '10.1.0.2:3128,us,ny,newyork\n', 'datacenter')).toEqual({
      imported: 1,
      duplicates: 0,
      errors: [],
    });
  });

  it('imports nothing when any line is bad', async () => {
    const before = (await t.db.db.select().from(exitNodes)).length;
    const result = await importInventory(
      t.deps,
      '10.2.0.1:3128,fr\n10.2.0.2:3128,xx\n10.2.0.3:3128,fr\n',
      'residential',
    );
    expect(result.imported).toBe(0);
    expect(result.errors).toEqual([{ line: 2, message: expect.stringContaining('country') }]);
    expect((await t.db.db.select().from(exitNodes)).length).toBe(before);
    expect(await t.db.db.select().from(exitNodes).where(eq(exitNodes.host, '10.2.0.1'))).toEqual([]);
  });

  it('lists countries, states and cities with inventory, names in zh and en and available counts', async () => {
    const countries = await request(t.app, 'GET', '/token/list/area/countries', { token: user.token, lang: 'zh' });
    expect(countries.json().data).toEqual([
      { id: 'jp', name: '日本', name_zh: '日本', name_en: 'Japan', available: 1 },
      { id: 'us', name: '美国', name_zh: '美国', name_en: 'United States of America', available: 4 },
    ]);
    const states = await request(t.app, 'GET', '/token/list/area/state?country_id=us', {
      token: user.token,
      lang: 'en',
    });
    expect(states.json().data).toEqual([
      { id: 'ca', name: 'California', name_zh: 'California', name_en: 'California', available: 2 },
      { id: 'ny', name: 'New York', name_zh: 'New York', name_en: 'New York', available: 2 },
    ]);
    const cities = await request(t.app, 'GET', '/token/list/area/city?country_id=us&state_id=ca', {
      token: user.token,
      lang: 'en',
    });
    expect(cities.json().data).toEqual([
      // The direct node is labelled by a configured slug (title-cased); imported nodes keep the name the file gave.
      { id: 'losangeles', name: 'Losangeles', name_zh: 'Losangeles', name_en: 'Losangeles', available: 1 },
      { id: 'sanfrancisco', name: 'San Francisco', name_zh: 'San Francisco', name_en: 'San Francisco', available: 1 },
    ]);
    const idc = await request(t.app, 'GET', '/token/list/area/state?country_id=us&category=idc', { token: user.token });
    expect(idc.json().data.map((a: { id: string; available: number }) => [a.id, a.available])).toEqual([
      ['ca', 1],
      ['ny', 1],
    ]);
    const missing = await request(t.app, 'GET', '/token/list/area/state', { token: user.token });
    expect(missing.statusCode).toBe(400);
    expect((await request(t.app, 'GET', '/token/list/area/countries')).statusCode).toBe(401);
  });

  itOnPglite(
    'imports a file with the CLI and reports bad lines with their numbers (its own embedded database: PGlite run only)',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'inventory-cli-'));
      const good = path.join(dir, 'good.csv');
      const bad = path.join(dir, 'bad.csv');
      writeFileSync(good, '10.3.0.1:3128:u:p,us,tx,austin\n');
      writeFileSync(bad, '10.3.0.2:3128,us\nnonsense\n');
      const env = { ...process.env, DATA_DIR: createTestConfig().DATA_DIR, DATABASE_URL: '' };
      const cli = fileURLToPath(new URL('./import-cli.ts', import.meta.url));
      const run = promisify(execFile);
      const ok = await run('npx', ['tsx', cli, good, '--kind', 'datacenter'], { env });
      expect(ok.stdout).toContain('imported 1 datacenter node(s), skipped 0 duplicate(s)');
      const again = await run('npx', ['tsx', cli, good, '--kind', 'datacenter'], { env });
      expect(again.stdout).toContain('imported 0 datacenter node(s), skipped 1 duplicate(s)');
      const failed = await run('npx', ['tsx', cli, bad], { env }).catch((e: { code: number; stderr: string }) => e);
      expect(failed).toMatchObject({ code: 1 });
      expect((failed as { stderr: string }).stderr).toContain(`${bad}:2:`);
      expect((failed as { stderr: string }).stderr).toContain('nothing imported');
    },
  );
});
