import http from 'node:http';
import net from 'node:net';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_POOL_TEXTS, startFakePool, type TFakePool } from './fake-pool';

// The fake pool itself, driven by plain clients: an HTTP CONNECT client and the socks library.

/** An origin answering the address it saw. */
async function startSeenFrom() {
  const server = http.createServer((req, res) => res.end(`seen-from=${req.socket.remoteAddress}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

/** CONNECT through an HTTP proxy, then a GET inside the tunnel: the CONNECT answer and the origin's body. */
function viaConnect(
  proxyPort: number,
  username: string,
  password: string,
  target: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; socket?: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: target,
      headers: { 'proxy-authorization': `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
      agent: false,
    });
    req.on('connect', (res, socket, head: Buffer) => {
      if (res.statusCode !== 200) {
        let body = head.toString();
        socket.on('data', (d: Buffer) => (body += d.toString()));
        socket.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        return;
      }
      const inner = http.request({ createConnection: () => socket, path: '/', headers: { connection: 'close' } });
      inner.on('response', (r) => {
        let body = '';
        r.on('data', (d: Buffer) => (body += d.toString()));
        r.on('end', () => resolve({ status: 200, headers: res.headers, body }));
      });
      inner.on('error', reject);
      inner.end();
    });
    req.on('error', reject);
    req.end();
  });
}

function viaSocks(port: number, username: string, password: string, target: { host: string; port: number }) {
  return SocksClient.createConnection({
    proxy: { host: '127.0.0.1', port, type: 5, userId: username, password },
    command: 'connect',
    destination: target,
    timeout: 10_000,
  });
}

describe('fake pool', () => {
  let clock = Date.parse('2026-06-01T00:00:00Z');
  let origin: Awaited<ReturnType<typeof startSeenFrom>>;
  // Two providers with different grammars and spellings.
  let oxy: TFakePool;
  let deco: TFakePool;
  const oxyUser = (area: string, extra = '') => `customer-acme-cc-${area}${extra}`;

  beforeAll(async () => {
    origin = await startSeenFrom();
    oxy = await startFakePool({
      protocol: 'http-connect',
      template: 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]',
      user: 'acme',
      password: 'oxy-pass',
      areas: [{ country: 'US', state: 'us_california' }, { country: 'DE' }],
      exitAddresses: ['127.0.1.1', '127.0.1.2'],
      now: () => clock,
    });
    deco = await startFakePool({
      protocol: 'socks5',
      template: 'user-{user}-country-{country}[-city-{city}][-session-{session}-sessionduration-{minutes}]',
      user: 'sp1',
      password: 'deco-pass',
      areas: [{ country: 'jp', city: 'tokyo' }],
      areaRefusal: { http: 407, socks: 0x04 },
      exitAddresses: ['127.0.2.1', '127.0.2.2'],
      now: () => clock,
    });
  });
  afterAll(async () => {
    origin?.close();
    await oxy?.close();
    await deco?.close();
  });

  const target = () => `127.0.0.1:${origin.port}`;

  it('HTTP CONNECT: reads its grammar, reports the exit in headers, and leaves from the exit address', async () => {
    const ok = await viaConnect(oxy.port, oxyUser('US', '-st-us_california'), 'oxy-pass', target());
    expect(ok.status).toBe(200);
    expect(ok.headers['x-exit-country']).toBe('US');
    expect(ok.body).toBe(`seen-from=${ok.headers['x-exit-ip']}`);
    expect(oxy.tunnels.at(-1)).toMatchObject({
      country: 'US',
      state: 'us_california',
      exitIp: ok.headers['x-exit-ip'],
    });
  });

  it('HTTP CONNECT: refuses bad credentials with 407, an area it does not serve (or spells otherwise) with 403', async () => {
    const wrong = await viaConnect(oxy.port, oxyUser('US'), 'nope', target());
    expect([wrong.status, wrong.body]).toEqual([407, FAKE_POOL_TEXTS.badCredentials]);
    const otherAccount = await viaConnect(oxy.port, 'customer-other-cc-US', 'oxy-pass', target());
    expect(otherAccount.status).toBe(407);
    const notItsGrammar = await viaConnect(oxy.port, 'acme-country-us', 'oxy-pass', target());
    expect(notItsGrammar.status).toBe(407);
    for (const area of ['FR', 'us', 'US-st-texas']) {
      const refused = await viaConnect(oxy.port, oxyUser(area), 'oxy-pass', target());
      expect([refused.status, refused.body], area).toEqual([403, FAKE_POOL_TEXTS.areaNotServed]);
    }
    const offLoopback = await viaConnect(oxy.port, oxyUser('DE'), 'oxy-pass', '192.0.2.1:80');
    expect([offLoopback.status, offLoopback.body]).toEqual([403, FAKE_POOL_TEXTS.targetRefused]);
  });

  it('keeps a session on its exit for its minutes, then moves it; without a session each connection rotates', async () => {
    const sticky = (session: string, minutes: number) =>
      viaConnect(oxy.port, oxyUser('DE', `-sessid-${session}-sesstime-${minutes}`), 'oxy-pass', target());
    const first = (await sticky('s1', 10)).headers['x-exit-ip'];
    clock += 9 * 60_000;
    expect((await sticky('s1', 10)).headers['x-exit-ip']).toBe(first);
    clock += 60_000;
    const moved = (await sticky('s1', 10)).headers['x-exit-ip'];
    expect(moved).not.toBe(first);
    expect((await sticky('s1', 10)).headers['x-exit-ip']).toBe(moved);
    const a = (await viaConnect(oxy.port, oxyUser('DE'), 'oxy-pass', target())).headers['x-exit-ip'];
    const b = (await viaConnect(oxy.port, oxyUser('DE'), 'oxy-pass', target())).headers['x-exit-ip'];
    expect(a).not.toBe(b);
  });

  it('SOCKS5: reads another grammar and spelling, gives the exit as the bound address and in its record', async () => {
    const { socket, remoteHost } = await viaSocks(deco.port, 'user-sp1-country-jp-city-tokyo', 'deco-pass', {
      host: '127.0.0.1',
      port: origin.port,
    });
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    let body = '';
    socket.on('data', (d: Buffer) => (body += d.toString()));
    await new Promise((resolve) => socket.on('close', resolve));
    expect(['127.0.2.1', '127.0.2.2']).toContain(remoteHost?.host);
    expect(body).toContain(`seen-from=${remoteHost?.host}`);
    expect(deco.tunnels.at(-1)).toMatchObject({ country: 'jp', city: 'tokyo', exitIp: remoteHost?.host });
  });

  it('SOCKS5: refuses bad credentials (RFC 1929 status 1), an unknown area with its reply (4) and targets off loopback (2)', async () => {
    const to = { host: '127.0.0.1', port: origin.port };
    await expect(viaSocks(deco.port, 'user-sp1-country-jp', 'wrong', to)).rejects.toThrow(/Authentication failed/);
    await expect(viaSocks(deco.port, 'user-sp1-country-JP', 'deco-pass', to)).rejects.toThrow(/HostUnreachable/);
    await expect(viaSocks(deco.port, 'user-sp1-country-jp-city-osaka', 'deco-pass', to)).rejects.toThrow(
      /HostUnreachable/,
    );
    await expect(
      viaSocks(deco.port, 'user-sp1-country-jp', 'deco-pass', { host: '192.0.2.1', port: 80 }),
    ).rejects.toThrow(/NotAllowed/);
    expect(deco.stats()).toMatchObject({ badCredentials: 1, areaRefusals: 2, otherRefusals: 1 });
  });

  it('fails every connection when told to, stalls without answering when told to, and counts bytes', async () => {
    const before = oxy.stats();
    oxy.fail();
    const failed = await viaConnect(oxy.port, oxyUser('DE'), 'oxy-pass', target());
    expect([failed.status, failed.body]).toEqual([502, FAKE_POOL_TEXTS.failed]);
    deco.fail();
    await expect(
      viaSocks(deco.port, 'user-sp1-country-jp', 'deco-pass', { host: '127.0.0.1', port: origin.port }),
    ).rejects.toThrow(/Failure/);
    deco.recover();

    oxy.stall();
    const stalled = net.connect(oxy.port, '127.0.0.1');
    let answered = '';
    stalled.on('data', (d: Buffer) => (answered += d.toString()));
    stalled.write(`CONNECT ${target()} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await expect.poll(() => oxy.stats().connections).toBe(before.connections + 2);
    oxy.recover();
    // A connection made after it is answered; the stalled one still has nothing.
    const later = await viaConnect(oxy.port, oxyUser('DE'), 'oxy-pass', target());
    expect(later.status).toBe(200);
    expect(answered).toBe('');
    stalled.destroy();

    const after = oxy.stats();
    expect(after.tunnels).toBe(before.tunnels + 1);
    expect(after.bytesUp).toBeGreaterThan(before.bytesUp);
    expect(after.bytesDown - before.bytesDown).toBeGreaterThanOrEqual(`seen-from=127.0.1.1`.length);
  });
});
