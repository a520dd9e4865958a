import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyOk, createUser, importInventory, request, type TTestUser } from '@proxy/server/testing';
import { getThroughHttpProxy, startApiWithGateway, until } from '../../test/api-with-gateway';

// The real path of ARCHITECTURE.md: two local upstream proxies imported by CSV in
// two areas; a static IP bought in each area reaches the origin (the API's echo)
// through its own upstream, and the origin sees that upstream's address.

/** An HTTP CONNECT proxy with Basic credentials whose outgoing connections leave from `localAddress`. */
async function startUpstream(localAddress: string, username: string, password: string) {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket: net.Socket, head) => {
    if (req.headers['proxy-authorization'] !== expected)
      return socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const [host, port] = (req.url ?? '').split(':');
    const target = net.connect({ host, port: Number(port), localAddress }, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      socket.pipe(target);
      target.pipe(socket);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

describe('upstream exits imported by CSV', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let user: TTestUser;
  const upstreams: Awaited<ReturnType<typeof startUpstream>>[] = [];

  beforeAll(async () => {
    t = await startApiWithGateway();
    upstreams.push(await startUpstream('127.0.0.2', 'berlin user', 'p@ss:1'));
    upstreams.push(await startUpstream('127.0.0.3', 'tokyo', 'secret/2'));
    const csv = [
      `http://127.0.0.1:${upstreams[0].port}:berlin user:p@ss:1,de,be,Berlin`,
      `127.0.0.1:${upstreams[1].port}:tokyo:secret/2,jp,13,Tokyo`,
    ].join('\n');
    const result = await importInventory(t.deps, csv, 'residential');
    expect(result).toMatchObject({ imported: 2, errors: [] });
    user = await createUser(t.app, t.mailer, 'carol');
  });

  afterAll(async () => {
    await t?.close();
    for (const u of upstreams) u.close();
  });

  it.each([
    ['de', '127.0.0.2'],
    ['jp', '127.0.0.3'],
  ])('a static IP bought in %s leaves through its upstream (origin sees %s)', async (country, exitAddress) => {
    const bought = await buyOk(t.app, user.token, '/token/static/ip', {
      category: 'isp',
      network: 'HTTP',
      country_id: country,
      quantity: 1,
      days: 1,
    });
    const token = bought.tokens[0] as unknown as { token_id: number; proxy_url: string };
    // The console's proxy test: a real request through the gateway to the API's echo.
    let test: { ok: boolean; exit_ip: string } = { ok: false, exit_ip: '' };
    await until(async () => {
      test = (await request(t.app, 'GET', `/token/test/${token.token_id}`, { token: user.token })).json().data;
      return test.ok;
    });
    expect(test.exit_ip).toBe(exitAddress);
    // And the customer's own client with the proxy URL from the answer.
    const echo = await getThroughHttpProxy(
      token.proxy_url.replace(/@[^:]+:/, '@127.0.0.1:'),
      `http://127.0.0.1:${t.apiPort}/api/proxy/echo`,
    );
    expect(echo.status).toBe(200);
    expect(JSON.parse(echo.body).data.ip).toBe(exitAddress);
  });
});
