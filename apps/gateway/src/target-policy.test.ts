import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuthorizer } from './authorizer';
import { createGatewayServer, type TGatewayServer } from './gateway-server';
import { GatewayRefusal } from './refusals';
import { buildConnectRequest, buildUserPass, SOCKS_REPLY } from './socks5';
import { compileTargetRules } from '@proxy/contract';
import { createTargetGuard } from './target-policy';

// The SSRF battery: every form of a loopback, private, link-local, CGNAT or
// unspecified address a customer might try as a target. Loopback forms go
// through a real gateway on all three protocols (a listener waits on
// 127.0.0.1, so a wrongly allowed target would be reached and the test would
// see it); addresses outside this machine are checked at the guard itself,
// so no test ever sends a packet off the machine.

const authorizer: TAuthorizer = {
  authorize: ({ username, password }) =>
    username === 'u' && password === 'p'
      ? { tokenId: 1, exits: [{ id: 0, kind: 'direct' }], maxConnections: 1000 }
      : 'bad-credentials',
  findRefusal: () => null,
};

let gateway: TGatewayServer;
let gatewayPort: number;
let origin: http.Server;
let originPort: number;
let reached = 0;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

// Loopback spelled every way a resolver or a parser may accept.
const LOOPBACK_FORMS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '017700000001',
  '127.255.255.254',
  'localhost',
  'LOCALHOST',
  'localhost.',
  '0.0.0.0',
  '0',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
];

beforeAll(async () => {
  origin = http.createServer((_req, res) => {
    reached += 1;
    res.end('reached');
  });
  originPort = await listen(origin);
  // Port 0 of every form above means "this listener": the same port on 0.0.0.0 and ::1 is not needed, 127.0.0.1 is where it waits.
  gateway = createGatewayServer({
    authorizer,
    meter: { record() {} },
    policy: { allowPrivateTargets: false, echoUrls: [] },
  });
  gatewayPort = await listen(gateway.server);
});

afterAll(async () => {
  await gateway.close();
  origin.close();
});

function exchange(write: (socket: net.Socket) => void, until: (got: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = net.connect(gatewayPort, '127.0.0.1', () => write(socket));
    let got = Buffer.alloc(0);
    const done = () => {
      socket.destroy();
      resolve(got);
    };
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (until(got)) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

const auth = `Basic ${Buffer.from('u:p').toString('base64')}`;

describe('SSRF battery through the gateway', () => {
  it.each(LOOPBACK_FORMS)('refuses %s with target-refused over HTTP forward, CONNECT and SOCKS5', async (host) => {
    const forward = await exchange(
      (s) =>
        s.write(
          `GET http://${host}:${originPort}/ HTTP/1.1\r\nHost: ${host}:${originPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
        ),
      (b) => b.includes('\r\n\r\n'),
    );
    // Refused before any dial (403 target-refused); a spelling no resolver knows cannot be dialled at all (502).
    expect(forward.toString()).toMatch(/^HTTP\/1\.1 (403 .*x-proxy-reason: target-refused|502 )/is);
    const connect = await exchange(
      (s) =>
        s.write(
          `CONNECT ${host}:${originPort} HTTP/1.1\r\nHost: ${host}:${originPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
        ),
      (b) => b.includes('\r\n\r\n'),
    );
    expect(connect.toString()).toMatch(/^HTTP\/1\.1 (403 .*x-proxy-reason: target-refused|502 )/is);
    const bare = host.replace(/^\[|\]$/g, '');
    const socks = await exchange(
      (s) => {
        s.write(Buffer.from([5, 1, 2]));
        s.once('data', () => {
          s.write(buildUserPass('u', 'p'));
          s.once('data', () => s.write(buildConnectRequest(bare, originPort)));
        });
      },
      (b) => b.length >= 2 + 2 + 10,
    );
    expect(socks.length).toBeGreaterThanOrEqual(14);
    expect(socks[2 + 2 + 1], `SOCKS5 reply for ${host}`).not.toBe(0);
    expect(reached, `${host} reached the origin`).toBe(0);
  });

  // These must be refused by the guard itself (403 target-refused, SOCKS5 0x02), never dialled: a dial of
  // ::7f00:1 that fails here (no route) would answer 502 / 0x04, and on a host that routes ::/96 would reach 127.0.0.1.
  it.each(['[::7f00:1]', '[::127.0.0.1]', '[0:0:0:0:0:0:7f00:1]'])(
    'refuses the IPv4-compatible %s as the loopback it embeds, before any dial, on every protocol',
    async (host) => {
      const forward = await exchange(
        (s) =>
          s.write(
            `GET http://${host}:${originPort}/ HTTP/1.1\r\nHost: ${host}:${originPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
          ),
        (b) => b.includes('\r\n\r\n'),
      );
      expect(forward.toString()).toMatch(/^HTTP\/1\.1 403 .*x-proxy-reason: target-refused/is);
      const connect = await exchange(
        (s) =>
          s.write(
            `CONNECT ${host}:${originPort} HTTP/1.1\r\nHost: ${host}:${originPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
          ),
        (b) => b.includes('\r\n\r\n'),
      );
      expect(connect.toString()).toMatch(/^HTTP\/1\.1 403 .*x-proxy-reason: target-refused/is);
      expect(reached, `${host} reached the origin`).toBe(0);
    },
  );

  it('refuses a SOCKS5 CONNECT to ::7f00:1 (address type IPv6) with "not allowed", before any dial', async () => {
    const request = buildConnectRequest('::7f00:1', originPort);
    expect(request[3]).toBe(0x04);
    const socks = await exchange(
      (s) => {
        s.write(Buffer.from([5, 1, 2]));
        s.once('data', () => {
          s.write(buildUserPass('u', 'p'));
          s.once('data', () => s.write(request));
        });
      },
      (b) => b.length >= 2 + 2 + 10,
    );
    expect(socks[2 + 2 + 1]).toBe(SOCKS_REPLY.notAllowed);
    expect(reached).toBe(0);
  });

  it('still relays to a public name when asked (the battery is not refusing everything)', () => {
    const guard = createTargetGuard({ allowPrivateTargets: false, echoUrls: [] });
    expect(() => guard.check('93.184.216.34', 443)).not.toThrow();
    expect(guard.isAddressAllowed('2606:2800:220:1:248:1893:25c8:1946', 443)).toBe(true);
  });
});

describe('SSRF battery at the guard (addresses off this machine are never dialled by a test)', () => {
  const guard = createTargetGuard({ allowPrivateTargets: false, echoUrls: ['http://127.0.0.1:8080/api/proxy/echo'] });
  it.each([
    ['10.0.0.1'],
    ['10.255.255.255'],
    ['172.16.0.1'],
    ['172.31.255.1'],
    ['192.168.1.1'],
    ['169.254.169.254'],
    ['169.254.0.1'],
    ['100.64.0.1'],
    ['100.127.255.254'],
    ['0.0.0.0'],
    ['255.255.255.255'],
    ['224.0.0.1'],
    ['::1'],
    ['::'],
    ['fe80::1'],
    ['fc00::1'],
    ['fd12:3456::1'],
    ['::ffff:10.0.0.1'],
    ['::ffff:169.254.169.254'],
    ['::ffff:192.168.0.1'],
    ['64:ff9b::10.0.0.1'],
    ['::7f00:1'],
    ['::127.0.0.1'],
    ['0:0:0:0:0:0:7f00:1'],
    ['::a00:1'],
    ['::a9fe:a9fe'],
    ['::ffff:a9fe:a9fe'],
  ])('refuses %s', (address) => {
    expect(() => guard.check(address, 80)).toThrow(GatewayRefusal);
    expect(guard.isAddressAllowed(address, 80)).toBe(false);
  });

  it("refuses the host's own public address however it is written (IPv4-mapped, IPv4-compatible, hex)", () => {
    const own = createTargetGuard({
      allowPrivateTargets: false,
      echoUrls: [],
      ownAddresses: ['8.8.8.8', '2001:4860::8888'],
    });
    for (const address of ['8.8.8.8', '::ffff:8.8.8.8', '::ffff:808:808', '::808:808', '0:0:0:0:0:0:808:808'])
      expect(own.isAddressAllowed(address, 80), address).toBe(false);
    expect(own.isAddressAllowed('2001:4860:0:0:0:0:0:8888', 80)).toBe(false);
    expect(() => own.check('::808:808', 80)).toThrow(GatewayRefusal);
    expect(own.isAddressAllowed('8.8.4.4', 80)).toBe(true);
  });

  it('knows the echo by its host and port as written, and does not let its address through the guard', () => {
    expect(guard.echoAt('127.0.0.1', 8080)).toEqual({ path: '/api/proxy/echo' });
    expect(guard.echoAt('127.0.0.1', 8081)).toBeUndefined();
    expect(guard.echoAt('localhost', 8080)).toBeUndefined();
    expect(() => guard.check('127.0.0.1', 8080)).toThrow(GatewayRefusal);
    expect(guard.isAddressAllowed('127.0.0.1', 8080)).toBe(false);
  });

  it('refuses a name that resolves to loopback at lookup time (no rebinding around the check)', async () => {
    const lookup = guard.guardedLookup(80);
    const error = await new Promise<unknown>((resolve) => lookup('localhost', { family: 4 }, (err) => resolve(err)));
    expect(error).toBeInstanceOf(GatewayRefusal);
  });
});

describe('target rules at the guard', () => {
  const open = createTargetGuard({ allowPrivateTargets: true, echoUrls: [] });
  const resolve = (lookup: net.LookupFunction, name: string, all: boolean) =>
    new Promise<{ err: unknown; result: unknown }>((done) =>
      lookup(name, { all }, (err, result) => done({ err, result })),
    );

  it('answers the list when net asks for all addresses, one address otherwise', async () => {
    const all = await resolve(open.guardedLookup(80), 'localhost', true);
    expect(all.err).toBeNull();
    expect(Array.isArray(all.result) && all.result.length > 0).toBe(true);
    const one = await resolve(open.guardedLookup(80), 'localhost', false);
    expect(typeof one.result).toBe('string');
  });

  it('refuses a name resolving into a denied block, or outside an allowed one, with its own reason', async () => {
    const deny = compileTargetRules({ mode: 'deny', rules: ['127.0.0.0/8', '::1'] });
    const denied = await resolve(open.guardedLookup(80, deny), 'localhost', true);
    expect((denied.err as GatewayRefusal).reason).toBe('target-blocked-by-rule');
    const allow = compileTargetRules({ mode: 'allow', rules: ['192.0.2.0/24'] });
    expect(((await resolve(open.guardedLookup(80, allow), 'localhost', false)).err as GatewayRefusal).reason).toBe(
      'target-blocked-by-rule',
    );
    // A name the domain rules allow is not held to its addresses.
    const byName = compileTargetRules({ mode: 'allow', rules: ['localhost', '192.0.2.0/24'] });
    expect((await resolve(open.guardedLookup(80, byName), 'localhost', false)).err).toBeNull();
    expect(() => open.check('127.0.0.1', 80, deny)).toThrow('target-blocked-by-rule');
    expect(() => open.check('[::1]', 80, deny)).toThrow('target-blocked-by-rule');
    expect(() => open.check('127.0.0.1', 80, allow)).toThrow('target-blocked-by-rule');
    expect(() => open.check('192.0.2.7', 80, allow)).not.toThrow();
  });
});
