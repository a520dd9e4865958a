import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuthorizer, TGrant } from './authorizer';
import { createGatewayServer, type TGatewayServer } from './gateway-server';
import type { TRefusal } from './refusals';
import { buildConnectRequest, buildUserPass } from './socks5';

// A real gateway on loopback with a small in-memory authorizer, a real HTTP
// origin and a real TCP echo server.
const users: Record<string, { password: string; tokenId: number; refusal?: TRefusal; network?: 'http' | 'socks5' }> = {
  alice: { password: 'pw:a@1', tokenId: 1 },
  expired: { password: 'x', tokenId: 2, refusal: 'token-expired' },
  socksonly: { password: 'x', tokenId: 3, network: 'socks5' },
  cut: { password: 'x', tokenId: 4 },
  single: { password: 'x', tokenId: 5 },
};
const liveRefusal = new Map<number, TRefusal>();
const metered = new Map<number, number>();
// Told after each metered sample (waitForMeter waits on it).
const onMetered = new EventEmitter();

const authorizer: TAuthorizer = {
  authorize({ username, password, protocol }) {
    const u = users[username];
    if (!u || u.password !== password) return 'bad-credentials';
    if (u.refusal) return u.refusal;
    if (u.network && u.network !== protocol) return 'wrong-protocol';
    return {
      tokenId: u.tokenId,
      exits: [{ id: 0, kind: 'direct' }],
      maxConnections: username === 'single' ? 1 : 100,
    } satisfies TGrant;
  },
  findRefusal: (tokenId) => liveRefusal.get(tokenId) ?? null,
};

let gateway: TGatewayServer;
let gatewayPort: number;
let origin: http.Server;
let originPort: number;
let echo: net.Server;
let echoPort: number;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

// A raw client that counts every byte it sends and receives.
function rawClient() {
  const socket = net.connect(gatewayPort, '127.0.0.1');
  let received = Buffer.alloc(0);
  let sent = 0;
  socket.on('data', (d) => (received = Buffer.concat([received, d])));
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  socket.on('error', () => {});
  return {
    socket,
    closed,
    write(data: Buffer | string) {
      sent += Buffer.byteLength(data);
      socket.write(data);
    },
    received: () => received,
    sent: () => sent,
    /**
     * Waits until what was received satisfies the predicate, checked on each chunk (an error if the
     * socket closes first); no deadline of its own: the test's timeout bounds it.
     */
    waitFor(predicate: (buf: Buffer) => boolean): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(received) && !isClosed) return;
          socket.off('data', check);
          socket.off('close', check);
          if (predicate(received)) resolve();
          else reject(new Error(`closed after ${received.length} bytes: ${received}`));
        };
        // After the buffer's own listener (registered first), so `received` has the chunk.
        socket.on('data', check);
        socket.on('close', check);
        check();
      });
    },
  };
}

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** The token's metered bytes once they reach `expected` (more would fail the caller's exact check). */
async function waitForMeter(tokenId: number, expected: number) {
  while ((metered.get(tokenId) ?? 0) < expected) await once(onMetered, 'sample');
  return metered.get(tokenId) ?? 0;
}

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('content-type', 'text/plain');
      res.end(
        `origin saw ${req.method} ${req.url} host=${req.headers.host} proxyauth=${req.headers['proxy-authorization'] ?? 'none'} body=${body}`,
      );
    });
  });
  originPort = await listen(origin);
  echo = net.createServer((s) => s.pipe(s));
  echoPort = await listen(echo);
  gateway = createGatewayServer({
    authorizer,
    meter: {
      record(id, n) {
        metered.set(id, (metered.get(id) ?? 0) + n);
        onMetered.emit('sample');
      },
    },
    policy: { allowPrivateTargets: true, echoUrls: [] },
    sampleIntervalMs: 50,
  });
  gatewayPort = await listen(gateway.server);
});

afterAll(async () => {
  await gateway.close();
  origin.close();
  echo.close();
});

describe('HTTP forward proxying', () => {
  it('forwards absolute-URI requests, strips proxy headers, keeps the connection alive and meters exactly', async () => {
    metered.delete(1);
    const c = rawClient();
    const req = (n: number) =>
      `POST http://127.0.0.1:${originPort}/path?q=${n} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\nProxy-Authorization: ${basic('alice', 'pw:a@1')}\r\nContent-Length: 5\r\n\r\nhello`;
    c.write(req(1));
    await c.waitFor((b) => b.toString().includes('body=hello'));
    c.write(req(2));
    await c.waitFor((b) => b.toString().split('body=hello').length === 3);
    const text = c.received().toString();
    expect(text).toContain('origin saw POST /path?q=1');
    expect(text).toContain('proxyauth=none');
    expect(text).toContain('origin saw POST /path?q=2');
    const total = c.sent() + c.received().length;
    expect(await waitForMeter(1, total)).toBe(total);
    c.socket.destroy();
    await c.closed;
  });

  it('answers 407 with Proxy-Authenticate without or with wrong credentials, and meters nothing', async () => {
    metered.delete(1);
    for (const auth of ['', `Proxy-Authorization: ${basic('alice', 'nope')}\r\n`]) {
      const c = rawClient();
      c.write(`GET http://127.0.0.1:${originPort}/ HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
      await c.waitFor((b) => b.includes('\r\n\r\n'));
      const head = c.received().toString();
      expect(head).toMatch(/^HTTP\/1\.1 407/);
      expect(head.toLowerCase()).toContain('proxy-authenticate: basic realm="proxy"');
      c.socket.destroy();
    }
    expect(metered.get(1) ?? 0).toBe(0);
  });

  it('refuses with a reason header: expired token, wrong protocol', async () => {
    for (const [user, reason] of [
      ['expired', 'token-expired'],
      ['socksonly', 'wrong-protocol'],
    ] as const) {
      const c = rawClient();
      c.write(
        `GET http://127.0.0.1:${originPort}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user, 'x')}\r\n\r\n`,
      );
      await c.waitFor((b) => b.includes('\r\n\r\n'));
      expect(c.received().toString()).toMatch(/^HTTP\/1\.1 403/);
      expect(c.received().toString().toLowerCase()).toContain(`x-proxy-reason: ${reason}`);
      c.socket.destroy();
    }
  });
});

describe('malformed and limited HTTP requests', () => {
  it('answers 400 to a malformed request line and to an oversized head, and closes', async () => {
    for (const request of [
      'NONSENSE\r\n\r\n',
      `GET http://x/ HTTP/1.1\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      'CONNECT nonsense\r\n\r\n',
      `CONNECT x:1 HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]) {
      const c = rawClient();
      c.write(request);
      await c.closed;
      expect(c.received().toString()).toMatch(/^HTTP\/1\.1 4\d\d/);
    }
  });

  it('answers 400 to a request that is not in absolute form (not a proxy request)', async () => {
    const c = rawClient();
    c.write(`GET /just-a-path HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('alice', 'pw:a@1')}\r\n\r\n`);
    await c.waitFor((b) => b.includes('\r\n\r\n'));
    expect(c.received().toString()).toMatch(/^HTTP\/1\.1 400/);
    expect(c.received().toString().toLowerCase()).toContain('x-proxy-reason: bad-request');
    c.socket.destroy();
  });

  it('refuses a connection over the per-token limit with 429 too-many-connections', async () => {
    const first = rawClient();
    first.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('single', 'x')}\r\n\r\n`,
    );
    await first.waitFor((b) => b.includes('\r\n\r\n'));
    expect(first.received().toString()).toMatch(/^HTTP\/1\.1 200/);
    const second = rawClient();
    second.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('single', 'x')}\r\n\r\n`,
    );
    await second.waitFor((b) => b.includes('\r\n\r\n'));
    expect(second.received().toString()).toMatch(/^HTTP\/1\.1 429/);
    expect(second.received().toString().toLowerCase()).toContain('x-proxy-reason: too-many-connections');
    first.socket.destroy();
    await first.closed;
    // The slot frees once the gateway has seen the first connection close (the refused second one is closed too).
    await second.closed;
    await expect.poll(() => gateway.connectionCount()).toBe(0);
    const next = rawClient();
    next.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('single', 'x')}\r\n\r\n`,
    );
    await next.waitFor((b) => b.includes('\r\n\r\n'));
    expect(next.received().toString()).toMatch(/^HTTP\/1\.1 200/);
    next.socket.destroy();
    await next.closed;
  });
});

describe('CONNECT tunnels', () => {
  it('tunnels bytes both ways and meters exactly the payload (not the handshake)', async () => {
    metered.delete(1);
    const c = rawClient();
    c.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nProxy-Authorization: ${basic('alice', 'pw:a@1')}\r\n\r\n`,
    );
    await c.waitFor((b) => b.includes('\r\n\r\n'));
    expect(c.received().toString()).toMatch(/^HTTP\/1\.1 200/);
    const handshake = c.received().length;
    const payload = Buffer.alloc(300_000, 7);
    c.socket.write(payload);
    await c.waitFor((b) => b.length >= handshake + payload.length);
    expect(await waitForMeter(1, payload.length * 2)).toBe(payload.length * 2);
    c.socket.destroy();
    await c.closed;
  });

  it('refuses targets the policy forbids with 403 target-refused', async () => {
    const strict = createGatewayServer({
      authorizer,
      meter: { record() {} },
      policy: { allowPrivateTargets: false, echoUrls: [] },
    });
    const port = await listen(strict.server);
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => (got += d));
    s.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('alice', 'pw:a@1')}\r\n\r\n`,
    );
    await new Promise((r) => s.on('close', r));
    expect(got).toMatch(/^HTTP\/1\.1 403/);
    expect(got.toLowerCase()).toContain('x-proxy-reason: target-refused');
    await strict.close();
  });

  it('cuts a live tunnel when the token stops being valid', async () => {
    const c = rawClient();
    c.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('cut', 'x')}\r\n\r\n`);
    await c.waitFor((b) => b.includes('\r\n\r\n'));
    liveRefusal.set(4, 'token-exhausted');
    await c.closed;
    liveRefusal.delete(4);
  });
});

describe('SOCKS5', () => {
  async function socksConnect(user: string, pass: string, host: string, port: number) {
    const c = rawClient();
    c.write(Buffer.from([5, 1, 2]));
    await c.waitFor((b) => b.length >= 2);
    c.write(buildUserPass(user, pass));
    await c.waitFor((b) => b.length >= 4);
    if (c.received()[3] !== 0) return { c, authOk: false, reply: -1 };
    c.write(buildConnectRequest(host, port));
    await c.waitFor((b) => b.length >= 14);
    return { c, authOk: true, reply: c.received()[5] };
  }

  it('relays after RFC 1929 authentication and meters exactly the payload', async () => {
    metered.delete(1);
    const { c, reply } = await socksConnect('alice', 'pw:a@1', '127.0.0.1', echoPort);
    expect(reply).toBe(0);
    const payload = Buffer.alloc(100_000, 3);
    c.socket.write(payload);
    await c.waitFor((b) => b.length >= 14 + payload.length);
    expect(await waitForMeter(1, payload.length * 2)).toBe(payload.length * 2);
    c.socket.destroy();
  });

  it('fails authentication for wrong credentials, and refuses without the user/pass method', async () => {
    const { authOk } = await socksConnect('alice', 'wrong', '127.0.0.1', echoPort);
    expect(authOk).toBe(false);
    const c = rawClient();
    c.write(Buffer.from([5, 1, 0]));
    await c.waitFor((b) => b.length >= 2);
    expect([...c.received()]).toEqual([5, 0xff]);
  });

  it('answers "not allowed" (0x02) for an expired token', async () => {
    expect((await socksConnect('expired', 'x', '127.0.0.1', echoPort)).reply).toBe(2);
  });

  it('answers "connection refused" when the destination refuses', async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    expect((await socksConnect('alice', 'pw:a@1', '127.0.0.1', port)).reply).toBe(5);
  });
});
