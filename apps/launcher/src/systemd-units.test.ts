import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, itOnPglite, itOnPostgres } from '@proxy/db/testing';
import { freePort } from '../test/api-with-gateway';
import { BUNDLE, ROOT, startProcess, type TLaunched } from '../test/launched-process';

// The unit files of docs/systemd cannot be started here (no systemd); their command lines can. Each test reads a
// unit, checks its stop settings, and runs its ExecStart as systemd would (the compiled launcher with plain Node, an
// environment of its own, the unit's working directory), then stops it with the unit's KillSignal and expects exit 0.

/** A unit file's [Service] settings: each key's values in order. */
function readService(file: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of readFileSync(path.join(ROOT, 'docs/systemd', file), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const at = line.indexOf('=');
    const key = line.slice(0, at);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1)]);
  }
  return settings;
}

const one = (service: Map<string, string[]>, key: string): string => {
  const values = service.get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0];
};

/**
 * What differs between the production host and this checkout, in one place: the unit's install folder is the
 * checkout and `node` is the Node running the tests. Every path, the compiled launcher among them (`npm run build`;
 * the launcher's suites build it first when a source is newer), must exist as written.
 */
function runnableHere(execStart: string, workingDirectory: string): { command: string; args: string[] } {
  const [node, ...args] = execStart.split(/\s+/);
  expect(path.basename(node)).toBe('node');
  const local = args.map((a) =>
    a.startsWith(`${workingDirectory}/`) ? path.join(ROOT, a.slice(workingDirectory.length)) : a,
  );
  expect(local, `${execStart} runs ${BUNDLE}`).toContain(path.join(ROOT, BUNDLE));
  for (const arg of local.filter((a) => path.isAbsolute(a))) expect(existsSync(arg), arg).toBe(true);
  return { command: process.execPath, args: local };
}

/** The unit's Environment= lines as variables (the test's settings, standing in for its EnvironmentFile=, go over them). */
function environmentOf(service: Map<string, string[]>): Record<string, string> {
  return Object.fromEntries(
    (service.get('Environment') ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  );
}

/** Starts the unit's ExecStart here with only the unit's environment and `settings` (systemd passes nothing else). */
function startUnit(service: Map<string, string[]>, settings: Record<string, string>, readyText: string) {
  const { command, args } = runnableHere(one(service, 'ExecStart'), one(service, 'WorkingDirectory'));
  return startProcess(command, args, { PATH: process.env.PATH, ...environmentOf(service), ...settings }, readyText);
}

/** The stop settings every unit needs: SIGTERM, a stop timeout above the drain deadline, an environment file. */
function expectStopSettings(service: Map<string, string[]>, drainS: number): void {
  expect(one(service, 'KillSignal')).toBe('SIGTERM');
  expect(Number(one(service, 'TimeoutStopSec'))).toBeGreaterThan(drainS);
  expect(one(service, 'EnvironmentFile')).toMatch(/^\/etc\/proxy-console\/.+\.env$/);
}

describe('docs/systemd/proxy-console-api.service', () => {
  const service = readService('proxy-console-api.service');
  let dataDir: string | undefined;
  let api: TLaunched | undefined;

  afterAll(async () => {
    await api?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops with SIGTERM after the grace period and the embedded gateway’s drain', () => {
    expectStopSettings(service, 30 + 30);
    expect(one(service, 'ExecStart')).toMatch(/ server$/);
  });

  // The unit runs the embedded database whatever the suite's database: once, in the embedded database's pass.
  itOnPglite(
    'runs: its ExecStart answers the health check on a fresh data folder, and exits 0 on SIGTERM',
    async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'unit-api-'));
      const port = await freePort();
      api = await startUnit(
        service,
        {
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          PORT: String(port),
          GATEWAY_PORT: String(await freePort()),
          // A port of its own: the default one may be taken on this machine.
          METRICS_LISTEN: '127.0.0.1:0',
          ARGON2_MEMORY_KIB: '64',
          ARGON2_TIME_COST: '1',
        },
        'console and API on',
      );
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status, api.output()).toBe(200);
      expect(await health.json()).toMatchObject({ code: 0 });
      api.signal(one(service, 'KillSignal') as NodeJS.Signals);
      expect(await api.exited, api.output()).toBe(0);
    },
  );
});

describe('docs/systemd/proxy-console-gateway.service', () => {
  const service = readService('proxy-console-gateway.service');
  let gateway: TLaunched | undefined;
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  afterAll(async () => {
    await gateway?.kill();
    await db?.close();
  });

  it('stops with SIGTERM after the drain deadline, and reloads with SIGHUP to the main process', () => {
    expectStopSettings(service, 30);
    expect(one(service, 'ExecStart')).toMatch(/ gateway$/);
    expect(one(service, 'ExecReload')).toBe('/bin/kill -HUP $MAINPID');
  });

  itOnPostgres(
    'runs: its ExecStart listens on a fresh database, ExecReload replaces the workers, SIGTERM exits 0',
    async () => {
      db = await createTestDatabase();
      gateway = await startUnit(
        service,
        {
          DATABASE_URL: db.url!,
          GATEWAY_HOST: '127.0.0.1',
          GATEWAY_PORT: String(await freePort()),
          GATEWAY_WORKERS: '2',
          GATEWAY_METRICS_LISTEN: '127.0.0.1:0',
        },
        'gateway listening on',
      );
      // ExecReload as systemd runs it, $MAINPID being the process ExecStart started.
      const [kill, ...killArgs] = one(service, 'ExecReload').replace('$MAINPID', String(gateway.pid)).split(' ');
      execFileSync(kill, killArgs);
      await gateway.waitFor('gateway rolling restart done');
      gateway.signal(one(service, 'KillSignal') as NodeJS.Signals);
      expect(await gateway.exited, gateway.output()).toBe(0);
    },
  );
});
