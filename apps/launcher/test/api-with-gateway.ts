import http from 'node:http';
import net from 'node:net';
import { createSecretBox, GATEWAY_CHANGES_CHANNEL, listenForNotifications, openDb, type TDbHandle } from '@proxy/db';
import { startGateway, type TGateway } from '@proxy/gateway';
import {
  createMemoryMailer,
  createTestApp,
  seedProxyStartup,
  type TMemoryMailer,
  type TTestApp,
} from '@proxy/server/testing';

/**
 * Test support for suites that need the real path: the API listening on a
 * real port (so its echo endpoint is reachable) and the real gateway on the
 * same test database, with the target policy production uses (private targets
 * refused, on the API's listener only the echo GET).
 *
 * `embedded` (the default) wires the gateway as `npm start` does: the API
 * waits until the gateway has applied each change before it answers.
 * `separate` runs it as a standalone gateway does: its own connections (on
 * PostgreSQL), told of changes by NOTIFY and polling slowly, looking unknown
 * credentials up itself.
 */

/** A free port on loopback (closed again before use; the OS will not hand it out again at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The API on a real port plus a gateway; close() stops both. */
/** What startApiWithGateway answers. */
export type TApiWithGateway = TTestApp & { mailer: TMemoryMailer; apiPort: number; gateway: TGateway };

export async function startApiWithGateway(
  config: Record<string, string> = {},
  options: {
    mode?: 'embedded' | 'separate';
    /** More echo URLs the gateway lets through (a test's own IP echo). */
    echoUrls?: string[];
    /** Lets the gateway reach loopback targets (a test's own origin), as GATEWAY_ALLOW_PRIVATE_TARGETS does. */
    allowPrivateTargets?: boolean;
  } = {},
): Promise<TApiWithGateway> {
  const mode = options.mode ?? 'embedded';
  const apiPort = await freePort();
  const gatewayPort = await freePort();
  const mailer = createMemoryMailer();
  const t = await createTestApp({
    mailer,
    config: { HOST: '127.0.0.1', PORT: String(apiPort), GATEWAY_PUBLIC_PORT: String(gatewayPort), ...config },
  });
  await seedProxyStartup(t.deps);
  await t.app.listen({ host: '127.0.0.1', port: apiPort });
  // A separate gateway on PostgreSQL has a pool of its own, as in production.
  const url = (t.db as { url?: string }).url;
  const own: TDbHandle | undefined = mode === 'separate' && url ? await openDb({ url, poolSize: 4 }) : undefined;
  const database = own ?? t.db;
  const gateway: TGateway = await startGateway({
    db: database.db,
    listen: (onChange) => listenForNotifications(database, GATEWAY_CHANGES_CHANNEL, onChange),
    host: '127.0.0.1',
    port: gatewayPort,
    policy: {
      allowPrivateTargets: options.allowPrivateTargets ?? false,
      echoUrls: [`http://127.0.0.1:${apiPort}/api/proxy/echo`, ...(options.echoUrls ?? [])],
    },
    // Separate: the poll is only the fallback; what a test sees comes from the lookup and NOTIFY.
    pollIntervalMs: mode === 'separate' ? 60_000 : 100,
    flushIntervalMs: 200,
    sampleIntervalMs: 100,
    leaseBytes: 64 * 1024,
    // The API's key, as the launcher hands it to an embedded gateway (and a standalone one reads DATA_ENCRYPTION_KEY).
    secretBox: createSecretBox(t.deps.config.dataEncryptionKey),
  });
  if (mode === 'embedded') t.deps.gatewayApplied = () => gateway.store.refresh();
  return {
    ...t,
    mailer,
    apiPort,
    gateway,
    async close() {
      await gateway.close();
      await own?.close();
      await t.close();
    },
  };
}

/**
 * Waits until the check passes (the gateway reloads and flushes on timers). No
 * deadline of its own: the test's timeout bounds it, so a busy machine only makes it slower.
 */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** GET of an absolute URL through an HTTP proxy URL (http://user:pass@host:port): status and body. */
export function getThroughHttpProxy(
  proxyUrl: string,
  target: string,
): Promise<{ status: number; body: string; reason?: string }> {
  const proxy = new URL(proxyUrl);
  const auth = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString(
    'base64',
  );
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: proxy.hostname,
      port: Number(proxy.port),
      method: 'GET',
      path: target,
      headers: { host: new URL(target).host, 'proxy-authorization': `Basic ${auth}`, connection: 'close' },
      agent: false,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, reason: res.headers['x-proxy-reason'] as string | undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
