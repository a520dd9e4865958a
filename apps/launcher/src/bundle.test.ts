import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, describe, expect } from 'vitest';
import {
  createTestDatabase,
  insertExit,
  insertToken,
  insertUser,
  itOnPglite,
  itOnPostgres,
  startEcho,
} from '@proxy/gateway/testing';
import { freePort } from '../test/api-with-gateway';
import { BUNDLE, startBundle, type TLaunched } from '../test/launched-process';
import { echoThrough, getText, metricsUrlIn } from '../test/scrape';
import { openTunnel } from '../test/standalone-gateway';

// The compiled launcher (dist/launcher/main.js, `npm run build`) run as production runs it, with plain Node: the
// files it finds by path at run time outside the bundle (PGlite's WebAssembly, the SQL migrations, the shipped terms,
// the IP data) are found from it, the embedded gateway carries a request, and a clustered standalone gateway forks
// its workers from the bundle.

type TEnvelope = { code: number; msg: string; data: Record<string, unknown> };

/** A call to the API in English; fails unless the envelope says success. */
async function api(
  base: string,
  route: string,
  init: { token?: string; form?: Record<string, string>; json?: unknown } = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { lang: 'en' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${base}/api${route}`, { method: body ? 'POST' : 'GET', headers, body });
  const envelope = (await res.json()) as TEnvelope;
  expect(envelope, `${route} answered ${res.status}`).toMatchObject({ code: 0 });
  return envelope.data;
}

/** The registration code in the newest mail to `email` in the server's outbox (DATA_DIR/outbox), if any yet. */
function codeIn(dataDir: string, email: string): string | undefined {
  const outbox = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((file) => file.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')));
  } catch {
    return undefined; // no mail yet
  }
  const newest = files.sort().at(-1);
  if (!newest) return undefined;
  const text = readFileSync(path.join(outbox, newest), 'utf8');
  return /\b(\d{6})\b/.exec(
    text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n'),
  )?.[1];
}

/** One GET through the gateway with Basic proxy credentials; the status line and the body. */
async function getThroughGateway(gatewayPort: number, credentials: string, target: string) {
  const socket = net.connect(gatewayPort, '127.0.0.1');
  await once(socket, 'connect');
  socket.end(
    `GET ${target} HTTP/1.1\r\nHost: ${new URL(target).host}\r\n` +
      `Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\nConnection: close\r\n\r\n`,
  );
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: text.split('\r\n')[0], body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

describe(`${BUNDLE} server: the API and its embedded gateway on a fresh data folder`, () => {
  let server: TLaunched | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bundle-api-'));

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The embedded database whatever the suite's database: once, in the embedded database's pass.
  itOnPglite(
    'migrates the embedded database, answers ready, serves the terms and the IP data, and carries a request',
    async () => {
      const [port, gatewayPort] = [await freePort(), await freePort()];
      const base = `http://127.0.0.1:${port}`;
      server = await startBundle(
        'server',
        {
          PATH: process.env.PATH,
          HOST: '127.0.0.1',
          PORT: String(port),
          GATEWAY_PORT: String(gatewayPort),
          METRICS_LISTEN: '127.0.0.1:0',
          DATA_DIR: dataDir,
          ARGON2_MEMORY_KIB: '64',
          ARGON2_TIME_COST: '1',
        },
        'console and API on',
      );
      const output = server.output;
      await expect
        .poll(async () => (await getText(`${base}/api/health/ready`)).status, { message: output() })
        .toBe(200);
      // The shipped terms (apps/server/src/features/site/terms) are read from the sources' folder.
      const terms = await api(base, '/site/terms?lang=en');
      expect(terms.markdown).toMatch(/^# Terms of Service/);

      // A customer: registered with the e-mailed code, topped up in the sandbox, a static IP bought.
      const email = `bundle.${Date.now().toString(36)}@example.com`;
      await api(base, '/user/code', { form: { email, type: 'register' } });
      await expect.poll(() => codeIn(dataDir, email), { message: output() }).toMatch(/^\d{6}$/);
      const password = 'bundle password 1';
      const { token } = (await api(base, '/user/register', {
        form: {
          username: `b${Date.now().toString(36)}`,
          email,
          password,
          confirm_password: password,
          code: codeIn(dataDir, email)!,
        },
      })) as { token: string };
      const order = (await api(base, '/pay/charge/sandbox/20', { token, json: {} })) as { order_id: string };
      const paid = await fetch(`${base}/api/pay/sandbox/${order.order_id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'result=success',
        redirect: 'manual',
      });
      expect(paid.status, output()).toBe(303);

      // The IP data packages (found with createRequire from the bundle): a public address has a place and a network.
      const quality = await api(base, '/v1/ip-quality/8.8.8.8', { token });
      expect(quality).toMatchObject({ location: { country_code: 'US' }, asn: { number: 15169 } });

      const bought = (await api(base, '/token/static/ip', {
        token,
        json: { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 },
      })) as { tokens: { username: string; password: string }[] };
      const { username, password: secret } = bought.tokens[0];
      const echo = await getThroughGateway(gatewayPort, `${username}:${secret}`, `${base}/api/proxy/echo`);
      expect(echo.status, `${echo.body}\n${output()}`).toMatch(/^HTTP\/1\.1 200 /);

      server.signal('SIGTERM');
      expect(await server.exited, output()).toBe(0);
    },
  );
});

describe(`${BUNDLE} gateway: a standalone gateway of two workers on PostgreSQL`, () => {
  let gateway: TLaunched | undefined;
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let echo: Awaited<ReturnType<typeof startEcho>> | undefined;

  afterAll(async () => {
    await gateway?.kill();
    echo?.close();
    await db?.close();
  });

  itOnPostgres('forks its workers, answers ready and carries a tunnel, then exits 0 on SIGTERM', async () => {
    db = await createTestDatabase();
    echo = await startEcho();
    const userId = await insertUser(db.db);
    const exitNodeId = await insertExit(db.db, { egress: 'direct', country: 'us' });
    await insertToken(db.db, { userId, username: 'ubundle', exitNodeId });
    const port = await freePort();
    gateway = await startBundle(
      'gateway',
      {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(port),
        GATEWAY_WORKERS: '2',
        GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_METRICS_LISTEN: '127.0.0.1:0',
      },
      'gateway listening on',
    );
    const output = gateway.output;
    expect(output()).toContain('(2 workers)');
    const ready = metricsUrlIn(output()).replace(/\/metrics$/, '/health/ready');
    await expect.poll(async () => (await getText(ready)).status, { message: output() }).toBe(200);

    const { status, socket } = await openTunnel(port, `127.0.0.1:${echo.port}`, 'ubundle:secret');
    expect(status, output()).toBe(200);
    await echoThrough(socket, 100_000);
    socket.destroy();

    gateway.signal('SIGTERM');
    expect(await gateway.exited, output()).toBe(0);
  });
});
