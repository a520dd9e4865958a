import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viaProxy } from '@proxy/gateway/testing';
import { buyOk, createUser, readGatewayVersion, request, type TTestUser } from '@proxy/server/testing';
import { startApiWithGateway } from '../../test/api-with-gateway';

type TTunnel = { socket: net.Socket; closed: Promise<void>; received: () => number };

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

// A raw CONNECT tunnel through the gateway; resolves once the gateway answered 200.
function openTunnel(proxyPort: number, creds: { username: string; password: string }, port: number): Promise<TTunnel> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, '127.0.0.1');
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    let got = Buffer.alloc(0);
    let isOpen = false;
    socket.on('error', () => {});
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (isOpen) return;
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.toString('latin1', 0, end);
      if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(head));
      isOpen = true;
      got = got.subarray(end + 4);
      resolve({ socket, closed, received: () => got.length });
    });
    const auth = Buffer.from(`${creds.username}:${creds.password}`).toString('base64');
    socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`);
  });
}

// One round trip through the tunnel to the echo: echoed, or the tunnel closed (a cut one).
function echoOnce(tunnel: TTunnel): Promise<'echoed' | 'closed'> {
  if (tunnel.socket.destroyed) return Promise.resolve('closed');
  const before = tunnel.received();
  return new Promise((resolve) => {
    const onData = () => {
      if (tunnel.received() <= before) return;
      tunnel.socket.off('data', onData);
      resolve('echoed');
    };
    tunnel.socket.on('data', onData);
    void tunnel.closed.then(() => resolve('closed'));
    tunnel.socket.write('ping');
  });
}

// A forwarded GET of a never-ending answer: next() has the origin send one more chunk and tells whether it came.
function openStream(proxyPort: number, creds: { username: string; password: string }, url: string) {
  return new Promise<{ next(push: () => void): Promise<'data' | 'closed'> }>((resolve, reject) => {
    const auth = Buffer.from(`${creds.username}:${creds.password}`).toString('base64');
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      path: url,
      headers: { host: new URL(url).host, 'proxy-authorization': `Basic ${auth}` },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      let bytes = 0;
      let isClosed = false;
      const waiting = new Set<() => void>();
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        for (const w of waiting) w();
      });
      res.on('error', () => {});
      res.on('close', () => {
        isClosed = true;
        for (const w of waiting) w();
      });
      const next = (push: () => void) =>
        new Promise<'data' | 'closed'>((done) => {
          const before = bytes;
          const check = () => {
            if (isClosed) done('closed');
            else if (bytes > before) done('data');
            else return;
            waiting.delete(check);
          };
          waiting.add(check);
          check();
          push();
        });
      res.once('data', () => resolve({ next }));
    });
    req.end();
  });
}

// PUT /api/token/reset/{id} ends what the old password opened, as a disable does. No clock: after the reset, a
// witness (another proxy of the same account) is disabled; the sweep that cuts the witness has the reset too.
describe.each(['embedded', 'separate'] as const)('a password reset through the %s gateway', (mode) => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  const echo = net.createServer((s) => {
    s.on('error', () => s.destroy());
    s.pipe(s);
  });
  const streams = new Set<http.ServerResponse>();
  const origin = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('first');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  });
  const push = () => {
    for (const res of streams) res.write('more');
  };
  let echoPort: number;
  let originPort: number;

  beforeAll(async () => {
    echoPort = await listen(echo);
    originPort = await listen(origin);
    t = await startApiWithGateway({}, { mode, allowPrivateTargets: true });
    ann = await createUser(t.app, t.mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
    origin.closeAllConnections();
    origin.close();
    echo.close();
  });

  const buy = async () =>
    (
      await buyOk(t.app, ann.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0] as { token_id: number; username: string; password: string };

  async function untilApplied(): Promise<void> {
    const wanted = await readGatewayVersion(t.db.db);
    await expect.poll(() => t.gateway.store.appliedVersion()).toBeGreaterThanOrEqual(wanted);
  }

  it('cuts the CONNECT tunnel and the stream opened before it; the new password works', async () => {
    const token = await buy();
    const witness = await buy();
    const port = t.gateway.port;
    const tunnel = await openTunnel(port, token, echoPort);
    const stream = await openStream(port, token, `http://127.0.0.1:${originPort}/endless`);
    const witnessTunnel = await openTunnel(port, witness, echoPort);
    expect(await echoOnce(tunnel)).toBe('echoed');
    expect(await stream.next(push)).toBe('data');

    const reset = await request(t.app, 'PUT', `/token/reset/${token.token_id}`, { token: ann.token });
    expect(reset.json().code, reset.body).toBe(0);
    const password = reset.json().data.password as string;
    await untilApplied();
    const off = await request(t.app, 'PUT', `/token/${witness.token_id}`, {
      token: ann.token,
      body: { status: 'disabled' },
    });
    expect(off.json().code, off.body).toBe(0);
    await witnessTunnel.closed;
    expect(await echoOnce(tunnel), 'the tunnel opened with the old password').toBe('closed');
    expect(await stream.next(push), 'the stream opened with the old password').toBe('closed');

    const old = await viaProxy({ proxyPort: port, ...token, url: `http://127.0.0.1:${originPort}/`, via: 'http' });
    expect(old.reason).toBe('bad-credentials');
    const fresh = await openTunnel(port, { username: token.username, password }, echoPort);
    expect(await echoOnce(fresh)).toBe('echoed');
    fresh.socket.destroy();
  });
});
