import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { migrateDb, openDb, type TDbHandle } from '@proxy/db';
import { createStateCache } from '@proxy/gateway';
import { buildApp, loadServerConfig } from '@proxy/server';
import { createUser } from '@proxy/server/features/proxies/proxies-test-kit';

/**
 * The API benchmark (npm run bench:api [-- --seconds 5 --connections 50 --warmup 1
 * --proxies 10000 --other-rows 1000000 --only isp-static,notifications]): on a
 * fresh PostgreSQL database (DATABASE_URL's server, default
 * postgres://postgres@127.0.0.1:5432), one customer with 10k proxies and
 * rows in every list; the hot lists are loaded with autocannon on loopback
 * (in a child process, so it takes no CPU time from the API) side by side
 * with a Fastify hello-world answering the envelope, then again
 * after other customers' rows are added (1M proxies). Prints req/s, p50, p99
 * and the ratio to hello-world; then loads the gateway's in-memory state of
 * every proxy cold (time, memory per 100k proxies, and how soon a change
 * applies, against reading the ids alone in the same pages); drops its
 * database at the end. --state-only skips the HTTP loads; --no-cache runs
 * the API with its answer cache off (every request reads the database). Run with
 * --expose-gc (the npm script does) for exact memory figures.
 */

const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}
const settings = {
  seconds: Number(option('seconds') ?? 5),
  connections: Number(option('connections') ?? 50),
  /** Seconds of the same load before each measured one, not measured (the JIT's and the caches' warm-up). */
  warmupSeconds: Number(option('warmup') ?? 1),
  proxies: Number(option('proxies') ?? 10_000),
  /** The user's rows in each other list. */
  rows: Number(option('rows') ?? 2_000),
  /** Other customers' proxies added for the second pass; their rows in each other table are a tenth of it. */
  otherRows: Number(option('other-rows') ?? 1_000_000),
  only: option('only')?.split(',') ?? null,
  /** Leaves the database in place (to look at plans afterwards). */
  isKept: argv.includes('--keep'),
  /** SQL run after the migrations (--sql 'CREATE INDEX ...'): to measure an index before its migration exists. */
  extraSql: option('sql'),
  /** Writes a CPU profile of this process (the API's) during each list's first load into this folder. */
  profileDir: option('profile'),
  /** Runs the API with its answer cache off (ANSWER_CACHE_MB=0): every request reads the database. */
  isCacheOff: argv.includes('--no-cache'),
  /** Fills the tables and measures the gateway's state only (no HTTP loads). */
  isStateOnly: argv.includes('--state-only'),
};

/** The hot lists, as the console calls them. */
const ENDPOINTS: { name: string; url: string }[] = [
  { name: 'isp-static', url: '/api/token/list/isp/static?page=1&page_size=20' },
  { name: 'static-ip', url: '/api/token/list/static/ip?page=1&page_size=20' },
  { name: 'idc-static', url: '/api/token/list/idc/static?page=1&page_size=20' },
  { name: 'notifications', url: '/api/user/notification/list?page=1&page_size=20' },
  { name: 'pay-records', url: '/api/pay/record/list?page=1&page_size=20' },
  { name: 'ledger', url: '/api/pay/ledger/list?page=1&page_size=20' },
  { name: 'work-orders', url: '/api/user/work/order/list?page=1&page_size=20' },
  { name: 'supply', url: '/api/token/supply/list?page=1&page_size=20' },
  { name: 'rebates', url: '/api/invite/rebate/records?page=1&page_size=20' },
  { name: 'usage', url: '/api/token/session/traffic' },
].filter((e) => !settings.only || settings.only.includes(e.name));

const started = Date.now();
function log(text: string): void {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
}

type TFigures = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  apiCpuUs: number;
  dbCpuUs: number;
};

// CPU time (user + system, µs) of the PostgreSQL backends serving the bench's database, read from /proc
// (their titles name the database; the API's pool keeps its connections through a load).
const CLOCK_TICK_US = 1_000_000 / 100;
let benchDbName = '';
function postgresCpuTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(benchDbName)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}
/** CPU µs the backends used since `before` (a backend that ended meanwhile is not counted: a lower bound). */
function postgresCpuSince(before: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, now] of postgresCpuTicks()) ticks += now - (before.get(pid) ?? 0);
  return ticks * CLOCK_TICK_US;
}

// autocannon's command line: the load generator runs in a process of its own, never on the API's CPU time.
const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

async function runAutocannon(url: string, headers: Record<string, string>, seconds: number): Promise<string> {
  const args = [AUTOCANNON, '--json', '--connections', String(settings.connections), '--duration', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('--headers', `${name}=${value}`);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  return out;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<TFigures> {
  // Not measured: the JIT's and the caches' first second on this endpoint.
  if (settings.warmupSeconds > 0) await runAutocannon(url, headers, settings.warmupSeconds);
  const cpuBefore = process.cpuUsage();
  const dbBefore = postgresCpuTicks();
  const out = await runAutocannon(url, headers, settings.seconds);
  const cpu = process.cpuUsage(cpuBefore);
  const dbCpu = postgresCpuSince(dbBefore);
  const result = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  const requests = Math.max(1, result.requests.total);
  return {
    apiCpuUs: (cpu.user + cpu.system) / requests,
    dbCpuUs: dbCpu / requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Inserts the user's rows in every list, or other customers' rows (user ids of accounts made here). */
async function fill(handle: TDbHandle, userIds: number[], proxies: number, rows: number, tag: string): Promise<void> {
  const q = (text: string) => handle.pool!.query(text);
  const users = `ARRAY[${userIds.join(',')}]::bigint[]`;
  const uid = `(${users})[1 + g % ${userIds.length}]`;
  const G = (n: number) => `FROM generate_series(1, ${n}) g`;
  // Bought over the past days, as a real table's rows were (a gateway's sync re-reads only recent changes).
  await q(`INSERT INTO proxy_tokens (user_id, product, category, billing, network, country, username, password, expires_at, remark, created_at, updated_at)
    SELECT ${uid}, (ARRAY['static','static','dynamic','static'])[1 + g % 4], (ARRAY['isp','isp','isp','idc'])[1 + g % 4],
      (ARRAY['ip','traffic','traffic','ip'])[1 + g % 4], 'HTTP', 'us', 'b${tag}-' || g, 'pw', now() + interval '30 days', '',
      now() - interval '1 day' - g * interval '1 second', now() - interval '1 day' - g * interval '1 second' ${G(proxies)}`);
  await q(`INSERT INTO notifications (user_id, kind, title_zh, title_en, content_zh, content_en, read_at, created_at)
    SELECT ${uid}, 'system', 't', 't', 'c', 'c', CASE WHEN g % 3 = 0 THEN NULL ELSE now() END, now() - g * interval '1 second' ${G(rows)}`);
  await q(`INSERT INTO pay_orders (id, user_id, method, mode, status, amount_fen, fee_fen, price_fen, value_fen, expires_at, created_at)
    SELECT 'B${tag}X' || g, ${uid}, 'sandbox', 'redirect', 'timeout', 100, 0, 100, 100, now(), now() - g * interval '1 second' ${G(rows)}`);
  await q(`INSERT INTO ledger_entries (user_id, kind, reason, available_delta, frozen_delta, available_after, frozen_after, created_at)
    SELECT ${uid}, 'credit', 'adjustment', 0, 0, 0, 0, now() - g * interval '1 second' ${G(rows)}`);
  await q(`INSERT INTO rebates (order_id, inviter_id, invitee_id, charge_fen, rebate_fen, rule_version, status, due_at)
    SELECT 'R${tag}X' || g, ${uid}, ${uid}, 100, 10, 1, 'success', now() ${G(rows)}`);
  await q(
    `INSERT INTO work_orders (user_id, category, subject, status) SELECT ${uid}, 'other', 's', 'closed' ${G(rows)}`,
  );
  await q(`INSERT INTO supply_requests (user_id, type, product, network, amount, region, wait_days, cost_fen, contact_email, status, deadline_at)
    SELECT ${uid}, 'ip', 'static', 'HTTP', 1, 'us', 3, 100, 'a@example.com', 'cancelled', now() ${G(rows)}`);
  await q(`INSERT INTO token_usage (token_id, user_id, bucket, bytes)
    SELECT ${tag === 'u' ? 1_000_000_000 : 2_000_000_000} + g, ${uid}, date_trunc('hour', now()) - (g % 24) * interval '1 hour', 1000 ${G(rows)}`);
  // As autovacuum leaves a table after inserts: statistics, and the visibility map that lets counts read indexes only.
  await q('VACUUM ANALYZE');
}

type TStateFigures = {
  tokens: number;
  loadS: number;
  referenceS: number;
  heapMbPer100k: number;
  rssMb: number;
  changeMs: number;
};

/**
 * The reference the load time is compared with in the same run (the machine is
 * shared): the ids alone, read in the same pages in one snapshot, as plain rows.
 */
async function readIdsInPages(handle: TDbHandle, pageSize: number): Promise<number> {
  const client = await handle.pool!.connect();
  const started = performance.now();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (let afterId = 0; ;) {
      const { rows } = await client.query<{ id: string }>({
        text: 'SELECT t.id FROM proxy_tokens t JOIN users u ON u.id = t.user_id WHERE t.id > $1 ORDER BY t.id LIMIT $2',
        values: [afterId, pageSize],
      });
      if (rows.length < pageSize) break;
      afterId = Number(rows[rows.length - 1].id);
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return (performance.now() - started) / 1000;
}

/** The gateway's state cache loaded cold from the filled tables: time, heap per 100k proxies, and a change applied. */
async function measureGatewayState(handle: TDbHandle): Promise<TStateFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // The reference before and after the load, averaged: the machine's other work then weighs on both alike.
  const referenceBefore = await readIdsInPages(handle, 20_000);
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  const cache = createStateCache({ db: handle.db, pollIntervalMs: 3_600_000 });
  await cache.sync(true);
  const loadS = (performance.now() - loadStarted) / 1000;
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const tokens = cache.stats().tokens;
  const referenceS = (referenceBefore + (await readIdsInPages(handle, 20_000))) / 2;
  // A change (the owner disables a proxy) reaches the loaded copy with the next sync, which its notification triggers.
  const { rows } = await handle.pool!.query<{ id: string }>(`SELECT id FROM proxy_tokens ORDER BY id DESC LIMIT 1`);
  const id = Number(rows[0].id);
  const changeStarted = performance.now();
  // As the product writes it: the row and the gateways' version in one transaction.
  await handle.pool!.query(
    `BEGIN; UPDATE proxy_tokens SET status = 'disabled' WHERE id = ${id}; UPDATE gateway_state SET version = version + 1, updated_at = now() WHERE id = 1; COMMIT`,
  );
  await cache.refresh();
  const changeMs = performance.now() - changeStarted;
  if (cache.tokenById(id)?.status !== 'disabled') throw new Error('the gateway state missed a change');
  await cache.stop();
  return {
    tokens,
    loadS,
    referenceS,
    heapMbPer100k: ((heapUsed - heapBefore) / 1024 / 1024) * (100_000 / Math.max(tokens, 1)),
    rssMb: rss / 1024 / 1024,
    changeMs,
  };
}

/** A CPU profile of this process (where the API runs) until stopInto(file). */
async function startProfile(): Promise<{ stopInto: (file: string) => Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stopInto(file) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      log(`CPU profile: ${file}`);
    },
  };
}

function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
    .join('\n');
}

async function main(): Promise<void> {
  log(`API benchmark: ${JSON.stringify(settings)}`);
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432');
  const dbName = `bench_api_${process.pid}_${Date.now()}`;
  benchDbName = ` ${dbName} `;
  const adminUrl = new URL(base);
  adminUrl.pathname = '/postgres';
  const benchUrl = new URL(base);
  benchUrl.pathname = `/${dbName}`;
  const admin = await openDb({ url: adminUrl.toString(), poolSize: 1 });
  await admin.pool!.query(`CREATE DATABASE ${dbName}`);
  log(`database ${dbName} created`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-'));
  let handle: TDbHandle | undefined;
  const hello = Fastify({ logger: false });
  const closers: (() => Promise<unknown>)[] = [];
  try {
    handle = await openDb({ url: benchUrl.toString(), poolSize: 10 });
    await migrateDb(handle);
    if (settings.extraSql) await handle.pool!.query(settings.extraSql);
    const sent: { to: string; subject: string; text: string; html?: string }[] = [];
    const mailer = {
      describe: 'memory',
      async send(mail: (typeof sent)[number]) {
        sent.push(mail);
      },
      last: (to?: string) => [...sent].reverse().find((m) => !to || m.to === to),
    };
    const { app } = await buildApp({
      config: loadServerConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
        RATE_LIMIT_AUTH_MAX: '1000',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(tmpdir(), 'no-web-dist'),
        ANSWER_CACHE_MB: settings.isCacheOff ? '0' : '64',
      }),
      database: handle,
      mailer: mailer as never,
      logger: false,
    });
    closers.push(() => app.close());
    const apiAddress = await app.listen({ host: '127.0.0.1', port: 0 });
    hello.get('/hello', async () => ({ code: 0, msg: 'ok', data: { hello: 'world' } }));
    // The same hello-world answering, from memory, the first list's page as the API answers it: what the answer's size costs alone.
    let pageAnswer: unknown = null;
    hello.get('/hello-page', async () => pageAnswer);
    closers.push(() => hello.close());
    const helloAddress = await hello.listen({ host: '127.0.0.1', port: 0 });

    const user = await createUser(app, mailer as never, 'bench');
    const others = await Promise.all([1, 2, 3].map((i) => createUser(app, mailer as never, `bench-other-${i}`)));
    log(`user ${user.userId}: filling ${settings.proxies} proxies and ${settings.rows} rows in each other list`);
    await fill(handle, [user.userId], settings.proxies, settings.rows, 'u');
    const auth = { authorization: `Bearer ${user.token}` };
    for (const endpoint of ENDPOINTS) {
      const res = await fetch(`${apiAddress}${endpoint.url}`, { headers: auth });
      const body = (await res.json()) as { code: number; msg: string };
      if (body.code !== 0) throw new Error(`${endpoint.url}: ${res.status} ${body.msg}`);
      pageAnswer ??= body;
    }
    const pageAnswerBytes = Buffer.byteLength(JSON.stringify(pageAnswer));

    const passes: { label: string; hello: TFigures; helloPage: TFigures; lists: Map<string, TFigures> }[] = [];
    const runPass = async (label: string) => {
      log(`${label}: hello-world`);
      const helloFigures = await load(`${helloAddress}/hello`);
      const helloPage = await load(`${helloAddress}/hello-page`);
      const lists = new Map<string, TFigures>();
      for (const endpoint of ENDPOINTS) {
        log(`${label}: ${endpoint.name}`);
        const profiler = settings.profileDir && passes.length === 0 ? await startProfile() : null;
        lists.set(endpoint.name, await load(`${apiAddress}${endpoint.url}`, auth));
        if (profiler) await profiler.stopInto(path.join(settings.profileDir!, `${endpoint.name}.cpuprofile`));
      }
      passes.push({ label, hello: helloFigures, helloPage, lists });
    };
    if (!settings.isStateOnly) await runPass(`${settings.proxies} proxies`);
    log(
      `adding ${settings.otherRows} proxies and ${settings.otherRows / 10} rows in each other list of other customers`,
    );
    await fill(
      handle,
      others.map((o) => o.userId),
      settings.otherRows,
      settings.otherRows / 10,
      'o',
    );
    if (!settings.isStateOnly) await runPass(`+${settings.otherRows} others`);

    const table: string[][] = [
      [
        'endpoint',
        ...passes.flatMap((p) => [`${p.label} req/s`, 'p50 ms', 'p99 ms', 'x hello', 'API CPU µs', 'PG CPU µs']),
        'p99 last/first',
      ],
    ];
    const rowOf = (name: string, pick: (p: (typeof passes)[number]) => TFigures) => {
      const cells = [name];
      for (const p of passes) {
        const f = pick(p);
        const bad = f.errors + f.non2xx > 0 ? ` (${f.errors + f.non2xx} failed)` : '';
        cells.push(
          `${f.rps.toFixed(0)}${bad}`,
          String(f.p50),
          String(f.p99),
          (f.rps / p.hello.rps).toFixed(3),
          f.apiCpuUs.toFixed(0),
          f.dbCpuUs.toFixed(0),
        );
      }
      const first = pick(passes[0]).p99;
      const last = pick(passes[passes.length - 1]).p99;
      cells.push(first > 0 ? (last / first).toFixed(2) : '-');
      return cells;
    };
    if (passes.length > 0) {
      table.push(rowOf('hello-world', (p) => p.hello));
      table.push(rowOf(`hello, ${ENDPOINTS[0]?.name} answer (${pageAnswerBytes} B)`, (p) => p.helloPage));
      for (const endpoint of ENDPOINTS) table.push(rowOf(endpoint.name, (p) => p.lists.get(endpoint.name)!));
      process.stdout.write(
        `\n${settings.connections} connections, ${settings.seconds} s each, loopback; CPU per answered request: ` +
          `API (this process, where the API runs) and PostgreSQL (all its processes); ` +
          `answer cache ${settings.isCacheOff ? 'off (--no-cache): every request reads the database' : 'on: the lists are answered from memory after the first request'}\n${formatTable(table)}\n`,
      );
    }
    log('gateway state: cold load of every proxy');
    const state = await measureGatewayState(handle);
    process.stdout.write(
      `\ngateway state, cold load of ${state.tokens} proxies: ${state.loadS.toFixed(1)} s (goal <= 10 s; ` +
        `${(state.loadS / state.referenceS).toFixed(2)} x the ${state.referenceS.toFixed(1)} s of reading their ids alone in the same pages, before and after), ` +
        `heap ${state.heapMbPer100k.toFixed(1)} MB per 100k proxies (goal <= 50 MB), process RSS ${state.rssMb.toFixed(0)} MB, ` +
        `a change applied in ${state.changeMs.toFixed(0)} ms${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for exact memory)'}\n`,
    );
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!settings.isKept) await admin.pool!.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.close();
    log(`database ${dbName} ${settings.isKept ? 'kept' : 'dropped'}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
