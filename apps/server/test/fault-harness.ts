import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import type { TDbOrTx } from '@proxy/db';

/**
 * The fault harness: the API as a child process on a PostgreSQL database,
 * started as `npm run start:server` starts it (the launcher's `server` mode,
 * as e2e/support/app-process.ts does), which a test stops at a crash point
 * (FAULT_POINTS, apps/server/src/lib/fault-points.ts), kills with SIGKILL and
 * starts again. Everything waits on the child's output lines, never on time.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The JWT secret of the test configuration (createTestConfig): an in-process test app signs tokens the child accepts. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** PostgreSQL application_name of the child's connections (pg reads PGAPPNAME): the test finds and terminates them by it. */
export const API_APPLICATION_NAME = 'proxy-api-under-fault';

/** A running API child process. */
export type TApiProcess = {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the first line (from the start) that matches; rejects if the process ends first. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Resolves once the process reached the crash point `name` (its `FAULT_POINT <name>` line). */
  waitForFaultPoint(name: string): Promise<void>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a normal stop), resolved once the process is gone. */
  stop(): Promise<void>;
};

/**
 * Starts the API on `databaseUrl` (migrated, or migrated by the start) with
 * FAULT_POINTS when given; resolves once it listens and its start-up tasks
 * are done. Jobs are off unless `env` turns them on.
 */
export async function startApiProcess(options: {
  databaseUrl: string;
  faultPoints?: string;
  env?: Record<string, string>;
}): Promise<TApiProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      // Several API processes run at once: each its own metrics port.
      METRICS_LISTEN: '127.0.0.1:0',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'proxy-fault-')),
      DATABASE_URL: options.databaseUrl,
      GATEWAY_EMBEDDED: 'false',
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_ENCRYPTION_KEY: '7e57'.repeat(16),
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      RATE_LIMIT_AUTH_MAX: '1000',
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'info',
      PGAPPNAME: API_APPLICATION_NAME,
      FAULT_POINTS: options.faultPoints ?? '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines: string[] = [];
  let partial = { stdout: '', stderr: '' };
  const waiters = new Set<{ pattern: RegExp; resolve(line: string): void; reject(error: Error): void }>();
  let exitError: Error | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitError = new Error(`the API process ended (${signal ?? `code ${code}`}):\n${output}`);
      for (const waiter of waiters) waiter.reject(exitError);
      waiters.clear();
      resolve();
    }),
  );
  const onLine = (line: string) => {
    lines.push(line);
    for (const waiter of waiters) {
      if (!waiter.pattern.test(line)) continue;
      waiters.delete(waiter);
      waiter.resolve(line);
    }
  };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => {
      output += chunk;
      const parts = (partial[stream] + chunk).split('\n');
      partial = { ...partial, [stream]: parts.pop() ?? '' };
      for (const line of parts) onLine(line);
    });
  }
  const waitForLine = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return resolve(seen);
      if (exitError) return reject(exitError);
      waiters.add({ pattern, resolve, reject });
    });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    const listening = await waitForLine(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
    // The start-up tasks (operator, prices, direct exits) run before this line.
    await waitForLine(/console and API on /);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(listening)![0];
    return {
      url,
      pid: child.pid!,
      output: () => output,
      waitForLine,
      waitForFaultPoint: async (name) => {
        await waitForLine(new RegExp(`^FAULT_POINT ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      },
      kill: () => end('SIGKILL'),
      stop: () => end('SIGTERM'),
    };
  } catch (error) {
    await end('SIGKILL');
    throw error;
  }
}

/** The API's answer envelope; data as loosely typed as `inject`'s `json()` in the route tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the fields they expect
export type TEnvelope = { code: number; msg: string; data: any };

/** A call to the child API: JSON in, the envelope and the HTTP status out; a connection the process dropped rejects. */
export async function callApiProcess(
  api: Pick<TApiProcess, 'url'>,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; body?: object; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: TEnvelope }> {
  const res = await fetch(`${api.url}/api${url}`, {
    method,
    headers: {
      lang: 'en',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as TEnvelope };
}

/**
 * The API child of a test file, one at a time: started with the crash points
 * (and settings) a test needs, and reused by the next test while they are the
 * same and it has not stopped at a point; otherwise stopped and started anew.
 */
export function createApiSupervisor(databaseUrl: string, baseEnv: Record<string, string> = {}) {
  let api: TApiProcess | undefined;
  let started = '';
  return {
    /** The running child (after `with`). */
    get current(): TApiProcess {
      if (!api) throw new Error('no API process started');
      return api;
    },
    /** The child with exactly these crash points (FAULT_POINTS) and settings. */
    async with(faultPoints = '', env: Record<string, string> = {}): Promise<TApiProcess> {
      const wanted = JSON.stringify([faultPoints, env]);
      if (api && started === wanted && !api.output().includes('FAULT_POINT ')) return api;
      await api?.stop();
      started = wanted;
      api = await startApiProcess({ databaseUrl, faultPoints, env: { ...baseEnv, ...env } });
      return api;
    },
    async close(): Promise<void> {
      await api?.kill();
    },
  };
}

/** A call the kill of the process will cut: resolves to its error (or to an Error "answered") instead of rejecting unhandled meanwhile. */
export function cutCall(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => new Error('answered'),
    (error: unknown) => error,
  );
}

/** Rows of a raw SQL query, on either driver. */
export async function selectRows<T>(db: TDbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
