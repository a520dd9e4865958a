import http from 'node:http';
import net from 'node:net';
import { startGateway, type TGateway } from '@proxy/gateway';
import { createMemoryMailer, createTestApp, seedProxyStartup, type TMemoryMailer, type TTestApp } from '@proxy/server/testing';

/**
 * Test support for suites that need the real path: the API listening on a
 * real port (so its echo endpoint is reachable) and the real gateway on the
 * same test database, with the target policy production uses (private targets
 * refused, the API's own host:port allowed).
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

export async function startApiWithGateway(config: Record<string, string> = {}): Promise<TApiWithGateway> {
  const apiPort = await freePort();
  const gatewayPort = await freePort();
  const mailer = createMemoryMailer();
  const t = await createTestApp({
    mailer,
    config: { HOST: '127.0.0.1', PORT: String(apiPort), GATEWAY_PUBLIC_PORT: String(gatewayPort), ...config },
  });
  await seedProxyStartup(t.deps);
  await t.app.listen({ host: '127.0.0.1', port: apiPort });
  const gateway: TGateway = await startGateway({
    db: t.db.db,
    host: '127.0.0.1',
    port: gatewayPort,
    policy: { allowPrivateTargets: false, allowedEndpoints: [`127.0.0.1:${apiPort}`] },
    pollIntervalMs: 100,
    flushIntervalMs: 200,
    sampleIntervalMs: 100,
    leaseBytes: 64 * 1024,
  });
  return {
    ...t,
    mailer,
    apiPort,
    gateway,
    async close() {
      await gateway.close();
      await t.close();
    },
  };
}

/** Waits until the check passes (the gateway reloads and flushes every few hundred milliseconds here). */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** GET of an absolute URL through an HTTP proxy URL (http://user:pass@host:port): status and body. */
export function getThroughHttpProxy(proxyUrl: string, target: string): Promise<{ status: number; body: string; reason?: string }> {
  const proxy = new URL(proxyUrl);
  const auth = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
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
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, reason: res.headers['x-proxy-reason'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}
