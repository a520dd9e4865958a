import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateDb, openDb } from '@proxy/db';

/**
 * Start-up benchmark (npm run bench:startup [-- --runs 5 --only api,gateway]): how long a process takes from its
 * start until it answers ready, and its memory then, run from the TypeScript sources through tsx (as the start
 * scripts did before the compiled build) and from the compiled bundle with plain Node (`npm run start:server`,
 * `start:gateway` now), side by side in one run:
 *
 * - api: `main server` on the embedded database (PGlite in DATA_DIR/pg, migrated by an earlier start, as on a
 *   restart; each run on its own copy of that folder), with the gateway embedded; ready = /api/health/ready answers 200.
 * - gateway: `main gateway` standalone with GATEWAY_WORKERS=2 on a PostgreSQL database of its own (DATABASE_URL's
 *   server, default postgres://postgres@127.0.0.1:5432; created, migrated, dropped at the end); ready = its probe
 *   /health/ready answers 200 (both workers listening, the state loaded).
 *
 * Memory is read over the whole process tree (tsx's own process, a gateway's workers) once it has settled after
 * ready: RSS summed, PSS (shared pages counted once between the processes), and the peak RSS of the start (VmHWM,
 * summed). Runs are interleaved (tsx, bundle, tsx, ...) so that the
 * machine's load hits both alike; each figure is the median. Prints the load average before and after: the figures
 * follow it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}
const RUNS = Number(option('runs') ?? 5);
const ONLY = option('only')?.split(',') ?? ['api', 'gateway'];
const BASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432';

/** How each way starts the launcher: the old start scripts (tsx on the sources) and the new ones (the bundle). */
const WAYS = {
  // tsx's command (node_modules/.bin/tsx) on the Node running the benchmark.
  tsx: (mode: string) => [
    process.execPath,
    path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
    '--initial-old-space-size=64',
    'apps/launcher/src/main.ts',
    mode,
  ],
  bundle: (mode: string) => [
    process.execPath,
    '--enable-source-maps',
    '--initial-old-space-size=64',
    'dist/launcher/main.js',
    mode,
  ],
} as const;
type TWay = keyof typeof WAYS;

type TMemory = { rssMb: number; pssMb: number; peakMb: number };
type TSample = { readyMs: number } & TMemory;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The process and all its descendants (from /proc). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** RSS, PSS and peak RSS (VmHWM) of the process tree, in MB. */
function memoryOf(pid: number): TMemory {
  let rssKb = 0;
  let pssKb = 0;
  let peakKb = 0;
  for (const member of processTree(pid)) {
    try {
      const rollup = readFileSync(`/proc/${member}/smaps_rollup`, 'utf8');
      rssKb += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      peakKb += Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${member}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return { rssMb: rssKb / 1024, pssMb: pssKb / 1024, peakMb: peakKb / 1024 };
}

async function answers200(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Starts `command`, waits until `readyUrl` answers 200 (checked every 20 ms), then until its memory has settled (two
 * readings 100 ms apart within 2 %: the start's transient peak, PGlite opening its database, is freed right after
 * ready), measures, and stops it (SIGTERM).
 */
async function measure(command: string[], env: NodeJS.ProcessEnv, readyUrl: string): Promise<TSample> {
  const started = performance.now();
  const child: ChildProcess = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  while (!(await answers200(readyUrl))) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited (${child.exitCode}):\n${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const readyMs = performance.now() - started;
  let memory = memoryOf(child.pid!);
  for (let reading = 0; reading < 100; reading++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = memoryOf(child.pid!);
    const isSettled = Math.abs(next.rssMb - memory.rssMb) <= 0.02 * memory.rssMb;
    memory = next;
    if (isSettled) break;
  }
  child.kill('SIGTERM');
  await exited;
  return { readyMs, ...memory };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The API on the embedded database: a data folder migrated once by the bundle, copied for each run. */
async function benchApi(): Promise<Record<TWay, TSample[]>> {
  const template = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-api-'));
  const samples: Record<TWay, TSample[]> = { tsx: [], bundle: [] };
  const envFor = async (dataDir: string) => {
    const port = await freePort();
    return {
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        GATEWAY_PORT: String(await freePort()),
        METRICS_LISTEN: `127.0.0.1:${await freePort()}`,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
      },
      readyUrl: `http://127.0.0.1:${port}/api/health/ready`,
    };
  };
  try {
    // The first start migrates the database and writes the generated secrets; not measured.
    const first = await envFor(template);
    await measure(WAYS.bundle('server'), first.env, first.readyUrl);
    for (let run = 0; run < RUNS; run++) {
      for (const way of run % 2 ? (['bundle', 'tsx'] as const) : (['tsx', 'bundle'] as const)) {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-api-run-'));
        cpSync(template, dataDir, { recursive: true });
        try {
          const { env, readyUrl } = await envFor(dataDir);
          samples[way].push(await measure(WAYS[way]('server'), env, readyUrl));
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
        console.log(`api ${way} run ${run + 1}: ${JSON.stringify(samples[way].at(-1))}`);
      }
    }
  } finally {
    rmSync(template, { recursive: true, force: true });
  }
  return samples;
}

/** A standalone gateway with two workers on a migrated PostgreSQL database of its own. */
async function benchGateway(): Promise<Record<TWay, TSample[]>> {
  const name = `bench_startup_${process.pid}_${Date.now()}`;
  const adminUrl = new URL(BASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = await openDb({ url: adminUrl.toString(), poolSize: 1 });
  await admin.pool!.query(`CREATE DATABASE ${name}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const samples: Record<TWay, TSample[]> = { tsx: [], bundle: [] };
  try {
    const database = await openDb({ url: url.toString() });
    await migrateDb(database);
    await database.close();
    for (let run = 0; run < RUNS; run++) {
      for (const way of run % 2 ? (['bundle', 'tsx'] as const) : (['tsx', 'bundle'] as const)) {
        const metricsPort = await freePort();
        samples[way].push(
          await measure(
            WAYS[way]('gateway'),
            {
              DATABASE_URL: url.toString(),
              GATEWAY_HOST: '127.0.0.1',
              GATEWAY_PORT: String(await freePort()),
              GATEWAY_WORKERS: '2',
              GATEWAY_METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
            },
            `http://127.0.0.1:${metricsPort}/health/ready`,
          ),
        );
        console.log(`gateway ${way} run ${run + 1}: ${JSON.stringify(samples[way].at(-1))}`);
      }
    }
  } finally {
    await admin.pool!.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
  return samples;
}

execFileSync(process.execPath, ['apps/launcher/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
console.log(
  `start-up, median of ${RUNS} runs each; node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
    `load average ${loadAverage()} at the start`,
);
const results: { what: string; samples: Record<TWay, TSample[]> }[] = [];
if (ONLY.includes('api')) results.push({ what: 'API, embedded database', samples: await benchApi() });
if (ONLY.includes('gateway')) results.push({ what: 'gateway, 2 workers, PostgreSQL', samples: await benchGateway() });

console.log(`\nload average ${loadAverage()} at the end\n`);
const rows = results.flatMap(({ what, samples }) =>
  (['tsx', 'bundle'] as const).map((way) => ({
    what,
    way: way === 'tsx' ? 'tsx (sources)' : 'node (bundle)',
    ready: median(samples[way].map((s) => s.readyMs)) / 1000,
    rss: median(samples[way].map((s) => s.rssMb)),
    pss: median(samples[way].map((s) => s.pssMb)),
    peak: median(samples[way].map((s) => s.peakMb)),
  })),
);
console.log('| process | run as | ready s | RSS MB | PSS MB | peak RSS MB |');
console.log('|---|---|---:|---:|---:|---:|');
for (const row of rows) {
  const figures = [row.ready.toFixed(2), row.rss.toFixed(0), row.pss.toFixed(0), row.peak.toFixed(0)];
  console.log(`| ${row.what} | ${row.way} | ${figures.join(' | ')} |`);
}
