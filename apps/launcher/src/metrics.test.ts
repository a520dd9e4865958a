import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb, type TDb, type TDbHandle } from '@proxy/db';
import {
  createTestDatabase,
  describeOnPostgres,
  insertExit,
  insertToken,
  insertUser,
  isPostgres,
  itOnPostgres,
  startEcho,
} from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { startPgCutter } from '../test/pg-cutter';
import { echoThrough, getText, metricsUrlIn, parseExposition, scrape, type TScrape } from '../test/scrape';
import { openTunnel, startGatewayProcess, type TGatewayProcess } from '../test/standalone-gateway';
import { runGateway, runServer, type TRunning } from './run-modes';

const TOKEN = 'metrics-token-0123456789';
const KiB = 1024;
const DOCS_PRODUCTION = new URL('../../../docs/production.md', import.meta.url);

/** What a run of the API needs besides its database and ports (the tests' cheap secrets, no log). */
function apiEnv(dataDir: string): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_ENCRYPTION_KEY: '7e57'.repeat(16),
    LOG_LEVEL: 'silent',
    GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
    PAY_SANDBOX: 'true',
  };
}

/** A user, a direct exit and an HTTP token `username:secret` on it. */
async function seedToken(db: TDb, username: string): Promise<void> {
  const userId = await insertUser(db);
  const exitNodeId = await insertExit(db, { egress: 'direct', country: 'us' });
  await insertToken(db, { userId, username, exitNodeId });
}

/** Opens `count` CONNECT tunnels to the echo one after another, carries `bytes` each way through each, closes them. */
async function carry(port: number, echoPort: number, credentials: string, count: number, bytes: number) {
  for (let i = 0; i < count; i++) {
    const { status, socket } = await openTunnel(port, `127.0.0.1:${echoPort}`, credentials);
    expect(status).toBe(200);
    await echoThrough(socket, bytes);
    socket.destroy();
  }
}

const PROMQL_KEYWORDS = new Set([
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset'],
  ...['inf', 'nan'],
]);

/** Metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or strings. */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...stripped.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)]
    .map((m) => m[0])
    .filter((name) => !PROMQL_KEYWORDS.has(name.toLowerCase()))
    .filter((name, i, all) => all.indexOf(name) === i);
}

describe('the API with its embedded gateway (npm start): one metrics listener for both', () => {
  let handle: (TDbHandle & { url?: string }) | undefined;
  let cutter: Awaited<ReturnType<typeof startPgCutter>> | undefined;
  let running: TRunning;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let apiPort: number;
  let gatewayPort: number;
  let metricsUrl: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-metrics-'));
    if (isPostgres) {
      handle = await createTestDatabase();
      await seedToken(handle.db, 'umetrics');
      // Through a connection the last test cuts.
      cutter = await startPgCutter(handle.url!);
    } else {
      // The embedded database the run opens (DATA_DIR/pg), made from the migrated template.
      const seeded = await openDb({
        dataDir: path.join(dataDir, 'pg'),
        loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
      });
      await seedToken(seeded.db, 'umetrics');
      await seeded.close();
    }
    echo = await startEcho();
    [apiPort, gatewayPort] = [await freePort(), await freePort()];
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    running = await runServer({
      ...apiEnv(dataDir),
      PORT: String(apiPort),
      GATEWAY_PORT: String(gatewayPort),
      DATABASE_URL: cutter?.url ?? '',
      GATEWAY_EMBEDDED: 'true',
      GATEWAY_STATE_STALE_S: '2',
      METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
      METRICS_TOKEN: TOKEN,
    });
  });

  afterAll(async () => {
    // Once the database is cut (PostgreSQL), the gateway's last usage cannot be written: its stop fails.
    await running?.close().catch((error: unknown) => {
      if (!cutter) throw error;
    });
    await cutter?.close();
    echo?.close();
    await handle?.close();
  });

  it('counts requests by route name, a proxied transfer both ways and a refusal by its reason', async () => {
    const before = await scrape(metricsUrl, TOKEN);
    for (let i = 0; i < 3; i++) {
      const health = await getText(`http://127.0.0.1:${apiPort}/api/health`);
      // Unchanged by the probes beside it.
      expect(JSON.parse(health.body)).toEqual({
        code: 0,
        msg: 'OK',
        data: { status: 'ok', database: isPostgres ? 'postgres' : 'pglite' },
      });
    }
    await carry(gatewayPort, echo.port, 'umetrics:secret', 2, 64 * KiB);
    const refused = await openTunnel(gatewayPort, `127.0.0.1:${echo.port}`, 'umetrics:wrong');
    expect(refused.status).toBe(407);
    refused.socket.destroy();

    // A closed connection's last bytes are metered when the gateway has handled its close.
    let after: TScrape = before;
    await expect
      .poll(async () => {
        after = await scrape(metricsUrl, TOKEN);
        const delta = (name: string, labels: Record<string, string>) =>
          after.value(name, labels) - before.value(name, labels);
        return {
          health: delta('proxy_api_http_requests_total', { route: 'health', status: '200' }),
          accepted: delta('proxy_gateway_connections_accepted_total', { protocol: 'connect' }),
          up: delta('proxy_gateway_bytes_total', { direction: 'up' }) >= 2 * 64 * KiB,
          down: delta('proxy_gateway_bytes_total', { direction: 'down' }) >= 2 * 64 * KiB,
          refused: delta('proxy_gateway_refusals_total', { reason: 'bad-credentials' }),
          dials: delta('proxy_gateway_dial_seconds_count', { egress: 'direct' }),
        };
      })
      .toEqual({ health: 3, accepted: 3, up: true, down: true, refused: 1, dials: 2 });
    // The process's own metrics once (the gateway's registry leaves them to the API's), never a URL or a user.
    expect(after.text.match(/^# TYPE process_cpu_seconds_total /gm)).toHaveLength(1);
    expect(after.text).not.toMatch(/umetrics|127\.0\.0\.1/);
  });

  it("matches the metric list of docs/production.md, both ways, with each metric's type", async () => {
    const exposed = [...(await scrape(metricsUrl, TOKEN)).text.matchAll(/^# TYPE (proxy_\S+) (\S+)$/gm)]
      .map(([, name, type]) => `${name} ${type}`)
      .sort();
    const documented = [...readFileSync(DOCS_PRODUCTION, 'utf8').matchAll(/^\| `(proxy_[^`]+)` \| (\w+) \|/gm)]
      .map(([, name, type]) => `${name} ${type}`)
      .sort();
    expect(exposed.length).toBeGreaterThan(30);
    expect(exposed.filter((metric) => !documented.includes(metric))).toEqual([]);
    // Absent here: the pool's metrics on the embedded database (no pool), the gateway's own pool's (the embedded
    // gateway shares the API's pool) and a clustered gateway's primary's; the standalone gateway's test finds them.
    const absent = documented.filter((metric) => !exposed.includes(metric));
    const elsewhere = isPostgres ? /^proxy_gateway_(db_pool|cluster)_/ : /^proxy_(\w+_db_pool|gateway_cluster)_/;
    expect(absent.filter((metric) => !elsewhere.test(metric))).toEqual([]);
  });

  it('answers /metrics only with the bearer token; the probes need none', async () => {
    const none = await getText(metricsUrl);
    expect(none.status).toBe(401);
    expect(none.body).toMatch(/Bearer/);
    expect((await getText(metricsUrl, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    const ok = await getText(metricsUrl, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const base = metricsUrl.replace(/\/metrics$/, '');
    expect((await getText(`${base}/health/live`)).status).toBe(200);
    const ready = await getText(`${base}/health/ready`);
    expect([ready.status, JSON.parse(ready.body)]).toMatchObject([200, { status: 'ready', reasons: [] }]);
    const apiReady = await getText(`http://127.0.0.1:${apiPort}/api/health/ready`);
    expect(apiReady.status).toBe(200);
    expect(JSON.parse(apiReady.body).data.checks.gateway).toEqual({ status: 'ok' });
  });

  itOnPostgres(
    "is not ready once the database is gone: the database, its change feed, the gateway's stale copy",
    async () => {
      await cutter!.close();
      await expect
        .poll(async () => {
          const res = await getText(`http://127.0.0.1:${apiPort}/api/health/ready`);
          return [
            res.status,
            (JSON.parse(res.body) as { data: { reasons: string[] } }).data.reasons.map((r) => r.replace(/:.*/, '')),
          ];
        })
        .toEqual([503, ['database', 'migrations', 'change_feed', 'gateway']]);
      const res = JSON.parse((await getText(`http://127.0.0.1:${apiPort}/api/health/ready`)).body) as {
        data: { reasons: string[] };
      };
      expect(res.data.reasons[3]).toMatch(/^gateway: state stale: last matched the database \d+ s ago \(bound 2 s\)$/);
    },
  );
});

describe('metrics settings', () => {
  it('refuses to start a metrics listener off loopback without a token, naming the setting', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-metrics-'));
    await expect(
      runServer({ ...apiEnv(dataDir), METRICS_LISTEN: '0.0.0.0:9464', DATABASE_URL: 'postgres://127.0.0.1:1/none' }),
    ).rejects.toThrow(/METRICS_TOKEN: required when METRICS_LISTEN is not a loopback address/);
    await expect(
      runGateway({ DATABASE_URL: 'postgres://127.0.0.1:1/none', GATEWAY_METRICS_LISTEN: '[::]:9465' }),
    ).rejects.toThrow(/GATEWAY_METRICS_TOKEN: required when GATEWAY_METRICS_LISTEN is not a loopback address/);
  });
});

// The API and a clustered standalone gateway apart, both on one PostgreSQL database reached through a
// connection the test can cut: the gateway's primary adds up its two workers; the dashboard reads only
// names these two scrapes have; readiness turns to 503 with its reasons once the database is gone.
describeOnPostgres('the API and a two-worker standalone gateway', () => {
  let db: TDbHandle & { url?: string };
  let cutter: Awaited<ReturnType<typeof startPgCutter>>;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let api: TRunning;
  let apiPort: number;
  let apiMetricsUrl: string;
  let gateway: TGatewayProcess;
  let gatewayPort: number;
  let gatewayMetricsUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedToken(db.db, 'ucluster');
    cutter = await startPgCutter(db.url!);
    echo = await startEcho();
    apiPort = await freePort();
    const metricsPort = await freePort();
    apiMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    api = await runServer({
      ...apiEnv(mkdtempSync(path.join(tmpdir(), 'proxy-metrics-'))),
      PORT: String(apiPort),
      DATABASE_URL: cutter.url,
      GATEWAY_EMBEDDED: 'false',
      METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
      JOBS_INTERVAL_MS: '200',
    });
    gatewayPort = await freePort();
    gateway = await startGatewayProcess(
      {
        DATABASE_URL: cutter.url,
        GATEWAY_WORKERS: '2',
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_METRICS_TOKEN: TOKEN,
        GATEWAY_STATE_STALE_S: '2',
      },
      '(2 workers)',
    );
    gatewayMetricsUrl = metricsUrlIn(gateway.output());
  });

  afterAll(async () => {
    await gateway?.stop();
    await api?.close();
    await cutter?.close();
    echo?.close();
    await db?.close();
  });

  it("adds up the workers' counts: connections, bytes and refusals of tunnels spread over both", async () => {
    const before = await scrape(gatewayMetricsUrl, TOKEN);
    expect(before.value('proxy_gateway_cluster_workers', { state: 'answered' })).toBe(2);
    // Four tunnels, handed to the two workers in turn: a primary that read one worker would count two.
    await carry(gatewayPort, echo.port, 'ucluster:secret', 4, 32 * KiB);
    const refused = await openTunnel(gatewayPort, `127.0.0.1:${echo.port}`, 'ucluster:wrong');
    expect(refused.status).toBe(407);
    refused.socket.destroy();
    await expect
      .poll(async () => {
        const after = await scrape(gatewayMetricsUrl, TOKEN);
        const delta = (name: string, labels: Record<string, string>) =>
          after.value(name, labels) - before.value(name, labels);
        return {
          accepted: delta('proxy_gateway_connections_accepted_total', { protocol: 'connect' }),
          up: delta('proxy_gateway_bytes_total', { direction: 'up' }),
          down: delta('proxy_gateway_bytes_total', { direction: 'down' }),
          refused: delta('proxy_gateway_refusals_total', { reason: 'bad-credentials' }),
          workers: after.value('proxy_gateway_cluster_workers', { state: 'answered' }),
        };
      })
      .toEqual({ accepted: 5, up: 4 * 32 * KiB, down: 4 * 32 * KiB, refused: 1, workers: 2 });
    expect((await getText(gatewayMetricsUrl)).status).toBe(401);
  });

  it('has every metric name the Grafana dashboard queries, in a scrape of the API or of the gateway', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    ) as { panels: { title: string; type: string; targets?: { expr: string }[] }[] };
    const queries = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
    );
    expect(queries.length).toBeGreaterThan(20);
    const apiScrape = await scrape(apiMetricsUrl);
    const gatewayScrape = await scrape(gatewayMetricsUrl, TOKEN);
    const scraped = new Set([...apiScrape.names, ...gatewayScrape.names]);
    // The metric list of docs/production.md is exactly what the API and a standalone gateway expose.
    const typed = (text: string) => [...text.matchAll(/^# TYPE (proxy_\S+) (\S+)$/gm)].map(([, n, t]) => `${n} ${t}`);
    const documented = [...readFileSync(DOCS_PRODUCTION, 'utf8').matchAll(/^\| `(proxy_[^`]+)` \| (\w+) \|/gm)];
    expect(documented.map(([, n, t]) => `${n} ${t}`).sort()).toEqual(
      [...new Set([...typed(apiScrape.text), ...typed(gatewayScrape.text)])].sort(),
    );
    const missing = queries.flatMap(({ panel, expr }) =>
      metricNamesOf(expr)
        .filter((name) => !scraped.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(missing).toEqual([]);
    // Every panel reads at least one metric (a query whose names all vanished would pass the check above).
    for (const { panel, expr } of queries) expect(metricNamesOf(expr), panel).not.toEqual([]);
  });

  it('turns readiness to 503 with the reasons once the database is gone', async () => {
    const gatewayReady = gatewayMetricsUrl.replace(/\/metrics$/, '/health/ready');
    const apiReady = `http://127.0.0.1:${apiPort}/api/health/ready`;
    expect((await getText(gatewayReady)).status).toBe(200);
    expect((await getText(apiReady)).status).toBe(200);
    await cutter.close();
    // Both reasons once the copy's freshness bound (2 s) has passed with no read of the database.
    await expect
      .poll(async () => {
        const res = await getText(gatewayReady);
        const { reasons } = JSON.parse(res.body) as { reasons: string[] };
        return {
          status: res.status,
          database: reasons.some((r) => /^worker \d: database: not reachable/.test(r)),
          state: reasons.some((r) => /^worker \d: state: state stale/.test(r)),
        };
      })
      .toEqual({ status: 503, database: true, state: true });
    const res = await getText(apiReady, { lang: 'en' });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({
      code: 9001,
      msg: 'The service is not ready',
      data: {
        error: 'NOT_READY',
        status: 'not_ready',
        reasons: expect.arrayContaining([expect.stringMatching(/^database: not reachable/)]),
      },
    });
    const listener = await getText(apiMetricsUrl.replace(/\/metrics$/, '/health/ready'));
    expect(listener.status).toBe(503);
  });
});

describe('reading PromQL expressions for metric names', () => {
  it('finds the metrics, not the functions, labels, ranges or keywords', () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.95, sum by (le, route) (rate(proxy_api_http_request_duration_seconds_bucket{route!="x"}[5m])))',
      ),
    ).toEqual(['proxy_api_http_request_duration_seconds_bucket']);
    expect(metricNamesOf('sum(rate(a_total[1m])) / on(job) group_left sum(b) unless c')).toEqual(['a_total', 'b', 'c']);
  });
  it('parses a scrape', () => {
    const parsed = parseExposition(
      '# TYPE h histogram\nh_bucket{le="1"} 2\nc_total{a="x",b="y"} 3\nc_total{a="z"} 4\n',
    );
    expect([...parsed.names].sort()).toEqual(['c_total', 'h_bucket', 'h_count', 'h_sum']);
    expect([parsed.value('c_total'), parsed.value('c_total', { a: 'x' })]).toEqual([7, 3]);
  });
});
