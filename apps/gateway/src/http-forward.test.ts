// Past ~400 lines: the HTTP forward cases (malformed heads, smuggling, bodies, pipelining, endings) share one
// gateway, database copy and loopback origin started once.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuthorizer } from './authorizer';
import { createGatewayServer, type TGatewayServer } from './gateway-server';

// The framing-only HTTP forwarder against real sockets: a Node origin (bodies,
// 100-continue), a scripted raw origin whose bytes the test chooses, and raw
// clients that count every byte they send and receive. Every token is its own
// so that metering can be checked exactly per test.

const metered = new Map<number, number>();
const tokens = new Map<string, number>();
const authorizer: TAuthorizer = {
  authorize: ({ username, password }) => {
    const tokenId = tokens.get(username);
    return tokenId !== undefined && password === 'pw'
      ? { tokenId, exits: [{ id: 0, kind: 'direct' }], maxConnections: 100 }
      : 'bad-credentials';
  },
  findRefusal: () => null,
};

let gateway: TGatewayServer;
let gatewayPort: number;
let origin: http.Server;
let originPort: number;
let otherOrigin: http.Server;
let otherPort: number;
let scripted: net.Server;
let scriptedPort: number;
let originRequests = 0;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

/** Waits until the check passes; the test's timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

let nextToken = 1;
/** A fresh token: its username and the Proxy-Authorization line. */
function token() {
  const username = `user${nextToken}`;
  const id = nextToken++;
  tokens.set(username, id);
  return { id, auth: `Proxy-Authorization: Basic ${Buffer.from(`${username}:pw`).toString('base64')}\r\n` };
}

function client() {
  const socket = net.connect(gatewayPort, '127.0.0.1');
  let received = Buffer.alloc(0);
  let sent = 0;
  let isClosed = false;
  socket.on('data', (d) => (received = Buffer.concat([received, d])));
  socket.on('close', () => (isClosed = true));
  socket.on('error', () => {});
  return {
    socket,
    write(data: Buffer | string) {
      sent += Buffer.byteLength(data);
      socket.write(data);
    },
    text: () => received.toString('latin1'),
    bytes: () => sent + received.length,
    isClosed: () => isClosed,
    /** Waits until `count` answers (heads) have arrived, and the body of the last one when `body` is given. */
    async answers(count: number, body = '') {
      await until(() => this.text().split(/HTTP\/1\.[01] [2-5]\d\d /).length > count && this.text().endsWith(body));
    },
    async closed() {
      await until(() => isClosed);
    },
  };
}

/** Metered bytes of a token, once its connections have all closed (a close meters the rest). */
async function meteredAfterClose(id: number): Promise<number> {
  await until(() => gateway.connectionCount() === 0);
  return metered.get(id) ?? 0;
}

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    originRequests += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      res.setHeader('content-type', 'text/plain');
      res.end(
        `A ${req.method} ${req.url} host=${req.headers.host} auth=${req.headers['proxy-authorization'] ?? 'none'} x=${req.headers['x-drop'] ?? 'none'} body=${body}.`,
      );
    });
  });
  originPort = await listen(origin);
  otherOrigin = http.createServer((req, res) => res.end(`B ${req.method} ${req.url}.`));
  otherPort = await listen(otherOrigin);
  // Answers by path with exactly the bytes of the test; keeps the connection for the next request.
  scripted = net.createServer((socket) => {
    let buf = '';
    socket.on('error', () => {});
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end !== -1; end = buf.indexOf('\r\n\r\n')) {
        const [method, path] = buf.slice(0, end).split(' ');
        buf = buf.slice(end + 4);
        const answer = SCRIPT[path]?.(method);
        if (answer === undefined) socket.destroy();
        else if (answer.endsWith('<close>')) socket.end(answer.slice(0, -'<close>'.length));
        else socket.write(answer);
      }
    });
  });
  scriptedPort = await listen(scripted);
  gateway = createGatewayServer({
    authorizer,
    meter: { record: (id, n) => metered.set(id, (metered.get(id) ?? 0) + n) },
    policy: { allowPrivateTargets: true, echoUrls: [] },
    sampleIntervalMs: 20,
  });
  gatewayPort = await listen(gateway.server);
});

afterAll(async () => {
  await gateway.close();
  origin.close();
  otherOrigin.close();
  scripted.close();
});

const SCRIPT: Record<string, (method: string) => string> = {
  '/head': () => 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n',
  '/204': () => 'HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n',
  '/304': () => 'HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\nETag: "x"\r\n\r\n',
  '/ok': () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
  '/chunked': () =>
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n',
  '/until-close': () => 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it<close>',
  '/cut': () => `HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(1000)}<close>`,
  '/bad-chunk': () => 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n',
  '/hop': () =>
    'HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Secret\r\nKeep-Alive: timeout=5\r\nX-Secret: s\r\nContent-Length: 3\r\n\r\nhop',
};

const get = (port: number, path: string, auth: string, extra = '') =>
  `GET http://127.0.0.1:${port}${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}${extra}\r\n`;

describe('malformed requests', () => {
  it.each([
    ['a request line with an extra part', 'GET http://127.0.0.1:1/ HTTP/1.1 extra\r\n\r\n'],
    ['two spaces in the request line', 'GET  http://127.0.0.1:1/ HTTP/1.1\r\n\r\n'],
    ['an unknown version', 'GET http://127.0.0.1:1/ HTTP/2.0\r\n\r\n'],
    ['a method that is not a token', 'G(T http://127.0.0.1:1/ HTTP/1.1\r\n\r\n'],
    ['a header without a colon', 'GET http://127.0.0.1:1/ HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n'],
    ['a space before the colon', 'GET http://127.0.0.1:1/ HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n'],
    ['a folded header line', 'GET http://127.0.0.1:1/ HTTP/1.1\r\nX-A: 1\r\n  continued\r\n\r\n'],
    ['a control character in a value', 'GET http://127.0.0.1:1/ HTTP/1.1\r\nX-A: a\x01b\r\n\r\n'],
    ['a bare LF inside the head', 'GET http://127.0.0.1:1/ HTTP/1.1\nX-A: 1\r\n\r\n'],
    ['a Content-Length that is not digits', 'POST http://127.0.0.1:1/ HTTP/1.1\r\nContent-Length: 5x\r\n\r\n'],
    ['an https:// target', 'GET https://127.0.0.1:1/ HTTP/1.1\r\n\r\n'],
    ['credentials in the target', 'GET http://u:p@127.0.0.1:1/ HTTP/1.1\r\n\r\n'],
  ])('answers 400 bad-request to %s, closes, and meters nothing', async (_name, request) => {
    const { id, auth } = token();
    const c = client();
    // Credentials first, so that nothing is refused for want of them.
    c.write(request.replace('\r\n', `\r\n${auth}`));
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 400 /);
    expect(c.text().toLowerCase()).toContain('x-proxy-reason: bad-request');
    expect(await meteredAfterClose(id)).toBe(0);
  });

  it('refuses a malformed request after good ones, metering the good ones exactly', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(originPort, '/one', auth));
    await c.answers(1, '.');
    const good = c.bytes();
    c.write(`GET http://127.0.0.1:${originPort}/two HTTP/1.1\r\nBad Header\r\n${auth}\r\n`);
    await c.closed();
    expect(c.text()).toMatch(/HTTP\/1\.1 400 /);
    expect(await meteredAfterClose(id)).toBe(good);
  });
});

describe('request smuggling: ambiguous framing is refused (RFC 9112 section 6)', () => {
  it.each([
    ['Content-Length with Transfer-Encoding', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n'],
    ['Transfer-Encoding with Content-Length', 'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n'],
    ['two Content-Length headers that differ', 'Content-Length: 5\r\nContent-Length: 6\r\n'],
    ['two equal Content-Length headers', 'Content-Length: 5\r\nContent-Length: 5\r\n'],
    ['a coding after chunked', 'Transfer-Encoding: chunked, gzip\r\n'],
    ['chunked twice', 'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n'],
    ['a coding other than chunked alone', 'Transfer-Encoding: gzip\r\n'],
  ])('%s: 400, closed, the origin never asked', async (_name, framing) => {
    const { id, auth } = token();
    const before = originRequests;
    const c = client();
    c.write(
      `POST http://127.0.0.1:${originPort}/smuggle HTTP/1.1\r\nHost: x\r\n${auth}${framing}\r\n5\r\nhello\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n\r\n`,
    );
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 400 /);
    expect(c.text().match(/HTTP\/1\.1/g)).toHaveLength(1);
    expect(originRequests).toBe(before);
    expect(await meteredAfterClose(id)).toBe(0);
  });
});

describe('bodies and pipelining', () => {
  it('answers pipelined requests in order on one connection and meters them exactly', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(
      get(originPort, '/p1', auth) +
        `POST http://127.0.0.1:${originPort}/p2 HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 5\r\n\r\nhello` +
        get(otherPort, '/p3', auth),
    );
    await c.answers(3, 'B GET /p3.');
    const text = c.text();
    expect(text.indexOf('A GET /p1')).toBeLessThan(text.indexOf('A POST /p2'));
    expect(text.indexOf('A POST /p2')).toBeLessThan(text.indexOf('B GET /p3'));
    expect(text).toContain('body=hello.');
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });

  it('passes a chunked request body with extensions and a trailer, and meters it exactly', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(
      `POST http://127.0.0.1:${originPort}/chunks HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\n4;a=b\r\nwiki\r\n`,
    );
    c.write('5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Sum: 1\r\n\r\n');
    await c.answers(1, '.');
    expect(c.text()).toContain('body=wikipedia in\r\n\r\nchunks..');
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });

  it.each([
    ['not hex', 'zz\r\nhello\r\n0\r\n\r\n'],
    ['negative', '-5\r\nhello\r\n0\r\n\r\n'],
    ['empty', '\r\nhello\r\n0\r\n\r\n'],
    ['a space before it', ' 5\r\nhello\r\n0\r\n\r\n'],
    ['thirteen digits', '1000000000000\r\nhello\r\n0\r\n\r\n'],
    ['a 0x prefix', '0x5\r\nhello\r\n0\r\n\r\n'],
    ['data longer than its size', '3\r\nhello\r\n0\r\n\r\n'],
    ['a bare LF after the size', '5\nhello\r\n0\r\n\r\n'],
  ])('refuses a chunked body whose chunk size is %s with 400, and closes', async (_name, body) => {
    const { id, auth } = token();
    const c = client();
    c.write(
      `POST http://127.0.0.1:${scriptedPort}/never HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\n${body}`,
    );
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 400 /);
    expect(await meteredAfterClose(id)).toBe(0);
  });

  it('relays Expect: 100-continue: the interim answer first, then the body goes, then the answer', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(
      `PUT http://127.0.0.1:${originPort}/expect HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 7\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(() => c.text().includes('\r\n\r\n'));
    expect(c.text()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    c.write('payload');
    await c.answers(1, '.');
    expect(c.text()).toContain('A PUT /expect');
    expect(c.text()).toContain('body=payload.');
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });
});

describe('answers without a body, and how connections end', () => {
  it('reads no body after HEAD, 204 and 304 (even with a Content-Length), and the connection stays in step', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(`HEAD http://127.0.0.1:${scriptedPort}/head HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
    await c.answers(1);
    c.write(get(scriptedPort, '/204', auth));
    await c.answers(2);
    c.write(get(scriptedPort, '/304', auth));
    await c.answers(3);
    c.write(get(scriptedPort, '/ok', auth));
    await c.answers(4, 'ok');
    const heads = c.text().match(/HTTP\/1\.1 \d{3}/g);
    expect(heads).toEqual(['HTTP/1.1 200', 'HTTP/1.1 204', 'HTTP/1.1 304', 'HTTP/1.1 200']);
    expect(c.isClosed()).toBe(false);
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });

  it('answers Connection: close with Connection: close and closes after the answer', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(originPort, '/bye', auth, 'Connection: close\r\n'));
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 200 /);
    expect(c.text().toLowerCase()).toContain('connection: close');
    expect(c.text()).toContain('A GET /bye');
    expect(await meteredAfterClose(id)).toBe(c.bytes());
  });

  it('keeps an HTTP/1.0 client that asks for keep-alive, and closes one that does not', async () => {
    const { auth } = token();
    const kept = client();
    kept.write(`GET http://127.0.0.1:${scriptedPort}/ok HTTP/1.0\r\n${auth}Connection: keep-alive\r\n\r\n`);
    await kept.answers(1, 'ok');
    expect(kept.text().toLowerCase()).toContain('connection: keep-alive');
    kept.write(`GET http://127.0.0.1:${scriptedPort}/ok HTTP/1.0\r\n${auth}\r\n`);
    await kept.closed();
    expect(kept.text().match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  });

  it('reuses one client connection across different origins', async () => {
    const { id, auth } = token();
    const c = client();
    for (const [port, path, mark] of [
      [originPort, '/x1', 'A GET /x1'],
      [otherPort, '/x2', 'B GET /x2'],
      [scriptedPort, '/ok', 'ok'],
      [originPort, '/x3', 'A GET /x3'],
    ] as const) {
      c.write(get(port, path, auth));
      await until(() => c.text().includes(mark));
    }
    expect(c.isClosed()).toBe(false);
    // The origin saw the request in origin form, with the client's Host, and without the proxy's headers.
    expect(c.text()).toContain(`A GET /x3 host=127.0.0.1:${originPort} auth=none`);
    await c.answers(4, '.');
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });

  it('drops hop-by-hop headers both ways, including those the Connection header names', async () => {
    const { auth } = token();
    const c = client();
    c.write(get(originPort, '/hop', auth, 'Connection: X-Drop\r\nX-Drop: secret\r\nKeep-Alive: 5\r\n'));
    await c.answers(1, '.');
    expect(c.text()).toContain('x=none');
    const d = client();
    d.write(get(scriptedPort, '/hop', auth));
    await d.answers(1, 'hop');
    expect(d.text().toLowerCase()).not.toContain('x-secret');
    expect(d.text().toLowerCase()).not.toContain('keep-alive');
    c.socket.destroy();
    d.socket.destroy();
  });

  it('passes a chunked answer as it came, and keeps the connection', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(scriptedPort, '/chunked', auth));
    await c.answers(1, 'X-Trailer: t\r\n\r\n');
    expect(c.text()).toContain('5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n');
    c.write(get(scriptedPort, '/ok', auth));
    await c.answers(2, 'ok');
    const total = c.bytes();
    c.socket.destroy();
    expect(await meteredAfterClose(id)).toBe(total);
  });

  it('passes an answer that ends with the connection, marked Connection: close, then closes', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(scriptedPort, '/until-close', auth));
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(c.text().toLowerCase()).toContain('connection: close');
    expect(c.text().endsWith('\r\n\r\nall of it')).toBe(true);
    expect(await meteredAfterClose(id)).toBe(c.bytes());
  });

  it('closes the client when the origin closes in the middle of the body, metering what the client got', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(scriptedPort, '/cut', auth));
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Length: 100000\r\n\r\nx/);
    expect(c.text().length).toBeLessThan(100_000);
    expect(await meteredAfterClose(id)).toBe(c.bytes());
  });

  it('never passes a broken chunk of an answer: 502, or the close', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(scriptedPort, '/bad-chunk', auth));
    await c.closed();
    // A 502 when the broken chunk came with the head; the head and the good chunk, then the close, when it came later.
    expect(c.text()).toMatch(/^HTTP\/1\.1 (502 |200 OK\r\n)/);
    expect(c.text()).not.toContain('zz');
    // A refusal is not metered; what did reach the client is.
    expect(await meteredAfterClose(id)).toBe(c.text().startsWith('HTTP/1.1 502') ? 0 : c.bytes());
  });

  it('answers 502 upstream-failed when the origin closes before answering', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(scriptedPort, '/no-such-script', auth));
    await c.closed();
    expect(c.text()).toMatch(/^HTTP\/1\.1 502 /);
    expect(c.text().toLowerCase()).toContain('x-proxy-reason: upstream-failed');
    expect(await meteredAfterClose(id)).toBe(0);
  });

  it('closes after the answer when the client half-closes after its request', async () => {
    const { id, auth } = token();
    const c = client();
    c.write(get(originPort, '/half', auth));
    c.socket.end();
    await c.closed();
    expect(c.text()).toContain('A GET /half');
    expect(await meteredAfterClose(id)).toBe(c.bytes());
  });
});
