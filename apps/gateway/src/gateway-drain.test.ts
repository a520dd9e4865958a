import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuthorizer } from './authorizer';
import { createGatewayServer } from './gateway-server';

// The protocol engine's clean stop, on loopback with a real origin and a real echo: close(drainMs) stops
// accepting at once and lets the connections in use finish, up to the deadline.
const authorizer: TAuthorizer = {
  authorize: ({ username }) =>
    username === 'alice' ? { tokenId: 1, exits: [{ id: 0, kind: 'direct' }], maxConnections: 100 } : 'bad-credentials',
  findRefusal: () => null,
};
const AUTH = `Proxy-Authorization: Basic ${Buffer.from('alice:x').toString('base64')}`;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

// A client socket with what it received so far, a wait on it, and its close.
function client(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let sent = 0;
  const waiters = new Set<() => void>();
  socket.on('data', (d: Buffer) => {
    received += d.toString('latin1');
    for (const w of waiters) w();
  });
  socket.on('error', () => {});
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  return {
    socket,
    write(data: string) {
      sent += Buffer.byteLength(data);
      socket.write(data);
    },
    /** Bytes sent and received. */
    moved: () => sent + Buffer.byteLength(received, 'latin1'),
    closed,
    isClosed: () => isClosed,
    received: () => received,
    /** Resolves once the received text contains `text` `count` times. */
    waitFor(text: string, count = 1): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (received.split(text).length - 1 < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

describe('a draining gateway', () => {
  let origin: http.Server;
  let originPort: number;
  let echo: net.Server;
  let echoPort: number;
  // The origin holds its answers to /slow until the test lets them go.
  let releaseSlow: () => void = () => {};
  let slowArrived: Promise<void>;
  let onSlowArrived: () => void = () => {};

  beforeAll(async () => {
    slowArrived = new Promise((resolve) => (onSlowArrived = resolve));
    origin = http.createServer((req, res) => {
      if (req.url !== '/slow') return res.end('fast');
      onSlowArrived();
      releaseSlow = () => res.end('slow');
    });
    originPort = await listen(origin);
    echo = net.createServer((s) => s.pipe(s));
    echoPort = await listen(echo);
  });

  afterAll(() => {
    origin.close();
    echo.close();
  });

  async function startEngine() {
    const metered = { bytes: 0 };
    const engine = createGatewayServer({
      authorizer,
      meter: { record: (_id, n) => void (metered.bytes += n) },
      policy: { allowPrivateTargets: true, echoUrls: [] },
      sampleIntervalMs: 50,
    });
    const port = await listen(engine.server);
    return { engine, port, metered };
  }

  const get = (path: string) =>
    `GET http://127.0.0.1:${originPort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${AUTH}\r\n\r\n`;

  it('refuses new connections, closes idle kept-alive ones, answers the request in progress with Connection: close, and waits for the tunnel', async () => {
    const { engine, port, metered } = await startEngine();
    // A kept-alive HTTP forward connection between requests.
    const idle = client(port);
    idle.write(get('/fast'));
    await idle.waitFor('fast');
    // One whose request is still being answered.
    const busy = client(port);
    busy.write(get('/slow'));
    await slowArrived;
    // A tunnel.
    const tunnel = client(port);
    tunnel.socket.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n\r\n`);
    await tunnel.waitFor('\r\n\r\n');
    expect(tunnel.received()).toMatch(/^HTTP\/1\.1 200/);

    let isClosed = false;
    const closing = engine.close(3_600_000).then(() => (isClosed = true));
    await idle.closed;
    expect(await new Promise((resolve) => net.connect(port, '127.0.0.1').once('error', resolve))).toMatchObject({
      code: 'ECONNREFUSED',
    });

    releaseSlow();
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(busy.received().toLowerCase()).toContain('connection: close');
    expect(busy.received()).toMatch(/slow$/);

    // The tunnel still carries bytes, and the stop waits for it.
    const before = tunnel.received().length;
    tunnel.socket.write('ping');
    await tunnel.waitFor('ping');
    expect(tunnel.received().length).toBe(before + 4);
    expect(isClosed).toBe(false);
    expect(tunnel.isClosed()).toBe(false);

    tunnel.socket.end();
    await closing;
    expect(engine.connectionCount()).toBe(0);
    // Every byte of the forwarded requests and answers, and the tunnel's 8 (not its handshake), were metered.
    expect(metered.bytes).toBe(idle.moved() + busy.moved() + 8);
  });

  it('closes the connections still open at the deadline', async () => {
    const { engine, port, metered } = await startEngine();
    const tunnel = client(port);
    tunnel.socket.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n\r\n`);
    await tunnel.waitFor('\r\n\r\n');
    tunnel.socket.write('ping');
    await tunnel.waitFor('ping');

    await engine.close(50);
    await tunnel.closed;
    expect(metered.bytes).toBe(8);
  });
});
