import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/**
 * The sign-in page's load benchmark (npm run bench:console [-- --runs 5]), on the
 * built console (`npm run build` first; this builds nothing): starts the app server
 * as `npm start` does (embedded database, fresh data folder) on loopback and, in
 * Debian's Chromium, opens /login with a cold cache in a new context for each run,
 * on plain loopback and under CDP network emulation (10 Mbit/s down and up, 40 ms
 * latency). Prints the median Largest Contentful Paint of the runs beside its budget,
 * the JavaScript /login transferred, and the ratio to a reference measured in the
 * same run the same way: a tiny static page (one heading) served on loopback, which
 * takes out the machine's and the browser's own share. Stops what it starts.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf('--runs') + 1] || 5) || 5;
/** Whole-run bound: the bench gives up (and cleans up) rather than hang on a stuck page. */
const TOTAL_BOUND_MS = 5 * 60_000;
const PAGE_BOUND_MS = 60_000;

const BUDGET_S = { loopback: 1.0, throttled: 1.5 } as const;
/** 10 Mbit/s each way in bytes per second, 40 ms latency (CDP Network.emulateNetworkConditions). */
const THROTTLE = {
  offline: false,
  latency: 40,
  downloadThroughput: (10 * 1_000_000) / 8,
  uploadThroughput: (10 * 1_000_000) / 8,
};

type TNetwork = keyof typeof BUDGET_S;
type TSample = { lcpMs: number; jsBytes: number; jsFiles: number };

const started = Date.now();
function log(text: string): void {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The app server as `npm start` runs it (the bundle `npm run build` made), on free loopback ports and a fresh data folder. */
async function startAppServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-console-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/launcher/main.js', 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: String(await freePort()),
      METRICS_LISTEN: '127.0.0.1:0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (!hasExited()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (;;) {
    if (hasExited()) {
      await stop();
      throw new Error(`the app server exited before answering:\n${output}`);
    }
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop };
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 250))]);
  }
}

/** The reference: one heading, nothing else, served on loopback like the console. */
async function startReferencePage(): Promise<{ url: string; server: Server }> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ref</title></head><body><h1>Sign in</h1></body></html>';
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html),
  );
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** Opens `url` in a new context (cold cache) and reads the page's LCP once `ready` holds, and the JavaScript it fetched. */
async function measure(browser: Browser, url: string, network: TNetwork, readySelector: string): Promise<TSample> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (network === 'throttled') await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    // Browser-side code as text: this workspace compiles without the DOM types.
    await page.addInitScript({
      content: `window.__lcp = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = Math.max(window.__lcp, e.startTime); }).observe({ type: 'largest-contentful-paint', buffered: true });`,
    });
    await page.goto(url, { waitUntil: 'load', timeout: PAGE_BOUND_MS });
    await page.locator(readySelector).first().waitFor({ state: 'visible', timeout: PAGE_BOUND_MS });
    await page.waitForLoadState('networkidle', { timeout: PAGE_BOUND_MS });
    // Two frames after the page settled, so the last candidate has been reported.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    return await page.evaluate<TSample>(`(() => {
      const scripts = performance.getEntriesByType('resource').filter((e) => /\\.m?js(\\?|$)/.test(e.name));
      return { lcpMs: window.__lcp, jsBytes: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0), jsFiles: scripts.length };
    })()`);
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  const bound = setTimeout(() => {
    log(`still running after ${TOTAL_BOUND_MS / 60_000} minutes: giving up`);
    process.exitCode = 1;
    void cleanup().then(() => process.exit(1));
  }, TOTAL_BOUND_MS);
  bound.unref();

  let app: Awaited<ReturnType<typeof startAppServer>> | undefined;
  let reference: Awaited<ReturnType<typeof startReferencePage>> | undefined;
  let browser: Browser | undefined;
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await new Promise<void>((resolve) => (reference ? reference.server.close(() => resolve()) : resolve()));
    await app?.stop();
  };
  try {
    log('starting the app server (embedded database)');
    app = await startAppServer();
    reference = await startReferencePage();
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const rows: string[] = [];
    for (const network of ['loopback', 'throttled'] as const) {
      const login: TSample[] = [];
      const ref: TSample[] = [];
      // Interleaved, so both see the same moments of a shared machine.
      for (let i = 0; i < runs; i++) {
        ref.push(await measure(browser, reference.url, network, 'h1'));
        login.push(await measure(browser, `${app.url}/login`, network, 'form button[type="submit"]'));
        log(
          `${network} run ${i + 1}/${runs}: /login LCP ${login[i].lcpMs.toFixed(0)} ms, reference ${ref[i].lcpMs.toFixed(0)} ms`,
        );
      }
      const lcp = median(login.map((s) => s.lcpMs)) / 1000;
      const refLcp = median(ref.map((s) => s.lcpMs)) / 1000;
      const js = median(login.map((s) => s.jsBytes));
      const files = median(login.map((s) => s.jsFiles));
      const budget = BUDGET_S[network];
      rows.push(
        `| ${network} | ${lcp.toFixed(3)} | ${budget.toFixed(1)} | ${lcp <= budget ? 'yes' : 'no'} | ${refLcp.toFixed(3)} | ${(lcp / refLcp).toFixed(1)} | ${(js / 1000).toFixed(1)} KB in ${files} files |`,
      );
    }
    process.stdout.write(
      [
        `/login, median of ${runs} cold loads each (Chromium ${browser.version()}); JS = encoded (compressed) bytes of the scripts fetched`,
        '',
        '| network | LCP s | budget s | within | reference LCP s | x reference | JS transferred |',
        '|---|---:|---:|---|---:|---:|---:|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    clearTimeout(bound);
    await cleanup();
  }
}

await main();
