import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextHealth, parseEchoAddress, probeThroughNode } from './inventory-probe.service';
import { startLocalEcho, startLocalUpstream, type TLocalUpstream } from './inventory-probe-test-kit';
import type { TExitNodeRow } from './inventory.repository';

/** A SOCKS5 proxy (RFC 1928, username/password of RFC 1929, CONNECT only) leaving from `localAddress`. */
async function startSocksUpstream(localAddress: string, username: string, password: string) {
  const server = net.createServer((client) => {
    client.on('error', () => client.destroy());
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting' && buf.length >= 2 && buf.length >= 2 + buf[1]) {
        const offersUserPass = buf.subarray(2, 2 + buf[1]).includes(0x02);
        buf = buf.subarray(2 + buf[1]);
        client.write(Buffer.from([0x05, offersUserPass ? 0x02 : 0xff]));
        stage = 'auth';
      }
      if (stage === 'auth' && buf.length >= 2) {
        const ulen = buf[1];
        if (buf.length < 3 + ulen || buf.length < 3 + ulen + buf[2 + ulen]) return;
        const plen = buf[2 + ulen];
        const isOk =
          buf.subarray(2, 2 + ulen).toString() === username &&
          buf.subarray(3 + ulen, 3 + ulen + plen).toString() === password;
        buf = buf.subarray(3 + ulen + plen);
        client.write(Buffer.from([0x01, isOk ? 0x00 : 0x01]));
        if (!isOk) return client.end();
        stage = 'request';
      }
      if (stage === 'request' && buf.length >= 10 && buf[3] === 0x01) {
        const host = [...buf.subarray(4, 8)].join('.');
        const port = buf.readUInt16BE(8);
        client.removeListener('data', onData);
        const target = net.connect({ host, port, localAddress }, () => {
          client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
          client.pipe(target);
          target.pipe(client);
        });
        target.on('error', () => client.destroy());
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function upstream(
  egress: 'http' | 'socks5',
  port: number,
  username: string | null,
  password: string | null,
): TExitNodeRow {
  const now = new Date();
  return {
    id: 1,
    kind: 'residential',
    egress,
    host: '127.0.0.1',
    port,
    username,
    password,
    country: 'us',
    state: '',
    city: '',
    stateName: '',
    cityName: '',
    exitIp: null,
    status: 'active',
    holderTokenId: null,
    health: 'unknown',
    latencyMs: null,
    checkedAt: null,
    probeFailures: 0,
    probeError: null,
    costPerDayFen: 0,
    createdAt: now,
    updatedAt: now,
  };
}

describe('inventory probe: one request through an upstream', () => {
  let echo: Awaited<ReturnType<typeof startLocalEcho>>;
  let http: TLocalUpstream;
  let socks: Awaited<ReturnType<typeof startSocksUpstream>>;
  beforeAll(async () => {
    echo = await startLocalEcho();
    http = await startLocalUpstream({ localAddress: '127.0.0.4', username: 'h', password: 'p:1' });
    socks = await startSocksUpstream('127.0.0.5', 's', 'p2');
  });
  afterAll(async () => {
    await echo?.close();
    await http?.close();
    await socks?.close();
  });

  it('sees the exit address through an HTTP CONNECT upstream and a SOCKS5 one, with their credentials', async () => {
    expect(await probeThroughNode(upstream('http', http.port, 'h', 'p:1'), echo.url, 5000)).toMatchObject({
      ok: true,
      exitIp: '127.0.0.4',
    });
    expect(await probeThroughNode(upstream('socks5', socks.port, 's', 'p2'), echo.url, 5000)).toMatchObject({
      ok: true,
      exitIp: '127.0.0.5',
    });
  });

  it('fails with a short reason on wrong credentials or a closed port', async () => {
    expect(await probeThroughNode(upstream('http', http.port, 'h', 'wrong'), echo.url, 5000)).toEqual({
      ok: false,
      error: 'upstream answered 407 to CONNECT',
    });
    expect(await probeThroughNode(upstream('socks5', socks.port, 's', 'wrong'), echo.url, 5000)).toMatchObject({
      ok: false,
      error: expect.stringContaining('SOCKS5'),
    });
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await probeThroughNode(upstream('http', port, null, null), echo.url, 5000)).toMatchObject({
      ok: false,
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });
});

describe('inventory probe: reading echoes and deciding health', () => {
  it('reads plain text, {ip} and the API envelope {data: {ip}}', () => {
    expect(parseEchoAddress('203.0.113.5\n')).toBe('203.0.113.5');
    expect(parseEchoAddress('{"ip":"2001:db8::1"}')).toBe('2001:db8::1');
    expect(parseEchoAddress('{"code":0,"data":{"ip":"8.8.8.8","at":"x"}}')).toBe('8.8.8.8');
    expect(parseEchoAddress('<html>')).toBeNull();
    expect(parseEchoAddress('{"ip":42}')).toBeNull();
    expect(parseEchoAddress('{broken')).toBeNull();
  });

  it('marks down at the threshold of failures in a row, up on a success; gateways reload only on up/down or a new exit IP', () => {
    const up = { health: 'up' as const, exitIp: '8.8.8.8', probeFailures: 0, latencyMs: 20 };
    const failure = { ok: false as const, error: 'ECONNREFUSED' };
    expect(nextHealth(up, failure, 1, 2)).toMatchObject({
      health: 'up',
      probeFailures: 1,
      exitIp: '8.8.8.8',
      isGatewayChange: false,
    });
    expect(nextHealth({ ...up, probeFailures: 1 }, failure, 1, 2)).toMatchObject({
      health: 'down',
      probeFailures: 2,
      isGatewayChange: true,
    });
    expect(nextHealth({ ...up, health: 'down', probeFailures: 4 }, failure, 2, 2)).toMatchObject({
      health: 'down',
      isGatewayChange: false,
    });
    const success = { ok: true as const, latencyMs: 15, exitIp: '8.8.8.8' };
    expect(nextHealth({ ...up, probeFailures: 1 }, success, 0, 2)).toMatchObject({
      health: 'up',
      probeFailures: 0,
      probeError: null,
      isGatewayChange: false,
    });
    expect(nextHealth({ ...up, health: 'down' }, success, 0, 2)).toMatchObject({ health: 'up', isGatewayChange: true });
    expect(nextHealth(up, { ...success, exitIp: '8.8.4.4' }, 0, 2)).toMatchObject({
      exitIp: '8.8.4.4',
      isGatewayChange: true,
    });
  });
});
