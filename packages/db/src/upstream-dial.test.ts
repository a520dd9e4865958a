import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_POOL_TEXTS, startFakePool, type TFakePool } from './fake-pool';
import { dialUpstream, redactUpstreamText, type TUpstreamDialOptions } from './upstream-dial';

// The dial through a pool's endpoints, against fake pools on loopback.

async function startSeenFrom() {
  const server = http.createServer((req, res) => res.end(`seen-from=${req.socket.remoteAddress}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A GET of / over an open tunnel: the body. */
function getOver(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ createConnection: () => socket, path: '/', headers: { connection: 'close' } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
    // The dial answers the tunnel paused (a caller pipes it); the request's parser listens by now.
    socket.resume();
  });
}

describe('dialling an upstream pool', () => {
  let origin: Awaited<ReturnType<typeof startSeenFrom>>;
  let http1: TFakePool;
  let http407: TFakePool;
  let socks: TFakePool;
  let socks4: TFakePool;
  let dead: number;
  const template = 'u-{user}-c-{country}[-s-{session}]';
  const base = (pool: TFakePool, over: Partial<TUpstreamDialOptions> = {}): TUpstreamDialOptions => ({
    protocol: 'http-connect',
    endpoints: [{ host: '127.0.0.1', port: pool.port }],
    username: 'u-acme-c-us',
    password: 'Pw:secret@1',
    target: { host: '127.0.0.1', port: origin.port },
    timeoutMs: 5000,
    ...over,
  });

  beforeAll(async () => {
    origin = await startSeenFrom();
    const common = { template, user: 'acme', password: 'Pw:secret@1', areas: [{ country: 'us' }] };
    http1 = await startFakePool({ ...common, protocol: 'http-connect', exitAddresses: ['127.0.3.1'] });
    http407 = await startFakePool({ ...common, protocol: 'http-connect', areaRefusal: { http: 407, socks: 0x02 } });
    socks = await startFakePool({ ...common, protocol: 'socks5', exitAddresses: ['127.0.3.2'] });
    socks4 = await startFakePool({ ...common, protocol: 'socks5', areaRefusal: { http: 403, socks: 0x04 } });
    dead = await closedPort();
  });
  afterAll(async () => {
    origin?.close();
    for (const pool of [http1, http407, socks, socks4]) await pool?.close();
  });

  it('HTTP CONNECT: a tunnel to the target, with the exit the provider reported and the connect time', async () => {
    const outcome = await dialUpstream(base(http1));
    expect(outcome).toMatchObject({
      kind: 'connected',
      exit: { ip: '127.0.3.1', country: 'us' },
      endpoint: { port: http1.port },
      attempts: [{ outcome: 'connected' }],
    });
    if (outcome.kind !== 'connected') return;
    expect(outcome.connectMs).toBeGreaterThanOrEqual(0);
    expect(await getOver(outcome.socket)).toBe('seen-from=127.0.3.1');
  });

  it('SOCKS5: a tunnel, with the exit from the bound address of the reply', async () => {
    const outcome = await dialUpstream(base(socks, { protocol: 'socks5' }));
    expect(outcome).toMatchObject({ kind: 'connected', exit: { ip: '127.0.3.2', country: null } });
    if (outcome.kind !== 'connected') return;
    expect(await getOver(outcome.socket)).toBe('seen-from=127.0.3.2');
  });

  it('tells wrong credentials from an area the provider does not serve, with its status and words', async () => {
    expect(await dialUpstream(base(http1, { password: 'wrong' }))).toMatchObject({
      kind: 'refused',
      reason: 'bad-credentials',
      status: 'HTTP 407 Proxy Authentication Required',
      detail: expect.stringContaining(FAKE_POOL_TEXTS.badCredentials),
    });
    for (const pool of [http1, http407]) {
      expect(await dialUpstream(base(pool, { username: 'u-acme-c-fr' }))).toMatchObject({
        kind: 'refused',
        reason: 'area-not-served',
        status: pool === http1 ? 'HTTP 403 Forbidden' : 'HTTP 407 Proxy Authentication Required',
        detail: FAKE_POOL_TEXTS.areaNotServed,
      });
    }
    expect(await dialUpstream(base(socks, { protocol: 'socks5', password: 'wrong' }))).toMatchObject({
      kind: 'refused',
      reason: 'bad-credentials',
      status: 'SOCKS5 authentication failed (RFC 1929)',
    });
    expect(await dialUpstream(base(socks, { protocol: 'socks5', username: 'u-acme-c-fr' }))).toMatchObject({
      kind: 'refused',
      reason: 'area-not-served',
      status: 'SOCKS5 reply 2 (not allowed)',
    });
    // "Host unreachable" may be the area or the target: the exact reply is kept, the reason stays open.
    expect(await dialUpstream(base(socks4, { protocol: 'socks5', username: 'u-acme-c-fr' }))).toMatchObject({
      kind: 'refused',
      reason: 'other',
      status: 'SOCKS5 reply 4 (host unreachable)',
    });
  });

  it('tries the endpoints in order while one is unreachable or silent; a refusal stops there', async () => {
    const endpoints = (...ports: number[]) => ports.map((port) => ({ host: '127.0.0.1', port }));
    const skipped = await dialUpstream(base(http1, { endpoints: endpoints(dead, http1.port) }));
    expect(skipped).toMatchObject({
      kind: 'connected',
      endpoint: { port: http1.port },
      attempts: [
        { endpoint: { port: dead }, outcome: 'unreachable', detail: expect.stringContaining('ECONNREFUSED') },
        { outcome: 'connected' },
      ],
    });
    if (skipped.kind === 'connected') skipped.socket.destroy();

    http407.stall();
    const silent = await dialUpstream(base(http1, { endpoints: endpoints(http407.port, http1.port), timeoutMs: 500 }));
    expect(silent).toMatchObject({ kind: 'connected', attempts: [{ outcome: 'timeout' }, { outcome: 'connected' }] });
    if (silent.kind === 'connected') silent.socket.destroy();
    expect(await dialUpstream(base(http1, { endpoints: endpoints(http407.port), timeoutMs: 300 }))).toMatchObject({
      kind: 'timeout',
      attempts: [{ outcome: 'timeout' }],
    });
    http407.recover();

    expect(await dialUpstream(base(http1, { endpoints: endpoints(dead, dead) }))).toMatchObject({
      kind: 'unreachable',
      attempts: [{ outcome: 'unreachable' }, { outcome: 'unreachable' }],
    });
    const before = http407.stats().connections;
    expect(
      await dialUpstream(base(http1, { endpoints: endpoints(http1.port, http407.port), password: 'wrong' })),
    ).toMatchObject({ kind: 'refused', attempts: [{ outcome: 'refused' }] });
    expect(http407.stats().connections).toBe(before);
  });

  it('cuts the password out of whatever the provider answers', async () => {
    // A provider that repeats the credentials it was sent.
    const server = net.createServer((socket) => {
      socket.once('data', (d: Buffer) => {
        const auth = /Proxy-Authorization: Basic (\S+)/.exec(d.toString())?.[1] ?? '';
        const body = `denied ${auth} for ${Buffer.from(auth, 'base64').toString()} (${encodeURIComponent('Pw:secret@1')})`;
        socket.end(
          `HTTP/1.1 407 Denied\r\nX-Error-Reason: bad pass Pw:secret@1\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const outcome = await dialUpstream(base(http1, { endpoints: [{ host: '127.0.0.1', port }] }));
    server.close();
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'bad-credentials', status: 'HTTP 407 Denied' });
    const text = JSON.stringify(outcome);
    expect(text).toContain('[redacted]');
    for (const secret of [
      'Pw:secret@1',
      encodeURIComponent('Pw:secret@1'),
      Buffer.from('u-acme-c-us:Pw:secret@1').toString('base64'),
    ])
      expect(text).not.toContain(secret);
    expect(redactUpstreamText('a\u0000b\nc', 'u', 'p')).toBe('a b c');
  });
});
