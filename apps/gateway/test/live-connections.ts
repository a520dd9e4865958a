import http from 'node:http';
import net from 'node:net';
import { listen } from './fixtures';

// Connections that stay open through the gateway (a CONNECT tunnel, a streaming answer), for the tests that
// cut them (disable, reset) and check what they still carry.

/** A raw CONNECT tunnel: the head of the gateway's answer, and the payload bytes received after it. */
export type TTunnel = { socket: net.Socket; head: string; closed: Promise<void>; received(): number };

/** Opens a CONNECT tunnel through the gateway to 127.0.0.1:`port`; resolves at the answer's head, whatever its status. */
export function openTunnel(options: {
  proxyPort: number;
  username: string;
  password: string;
  port: number;
}): Promise<TTunnel> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options.proxyPort, '127.0.0.1');
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    let got = Buffer.alloc(0);
    let head: string | undefined;
    socket.on('error', () => {});
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (head !== undefined) return;
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      head = got.toString('latin1', 0, end);
      got = got.subarray(end + 4);
      resolve({ socket, head, closed, received: () => got.length });
    });
    void closed.then(() => {
      if (head === undefined) reject(new Error('the gateway closed the tunnel before answering'));
    });
    const auth = Buffer.from(`${options.username}:${options.password}`).toString('base64');
    socket.write(`CONNECT 127.0.0.1:${options.port} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`);
  });
}

/** One round trip through an open tunnel to an echo: the echo, or the tunnel's close (what a cut connection gives). */
export function echoOnce(tunnel: TTunnel): Promise<'echoed' | 'closed'> {
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

/** An HTTP origin whose answers never end: each push() sends one more chunk of every open answer. */
export async function startEndlessOrigin(): Promise<{ port: number; push(): void; close(): void }> {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('first');
    open.add(res);
    res.on('close', () => open.delete(res));
  });
  const port = await listen(server);
  return {
    port,
    push: () => {
      for (const res of open) res.write('more');
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A forwarded GET through the gateway whose answer streams: resolves at the answer's first bytes (or its end);
 * next(push) has the origin send one more chunk and tells whether it came or the answer was closed.
 */
export function streamViaProxy(options: {
  proxyPort: number;
  username: string;
  password: string;
  url: string;
}): Promise<{ status: number; next(push: () => void): Promise<'data' | 'closed'> }> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${options.username}:${options.password}`).toString('base64');
    const req = http.request({
      host: '127.0.0.1',
      port: options.proxyPort,
      path: options.url,
      headers: { host: new URL(options.url).host, 'proxy-authorization': `Basic ${auth}` },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let bytes = 0;
      let isClosed = false;
      const waiting = new Set<() => void>();
      const wake = () => {
        for (const w of waiting) w();
      };
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        wake();
      });
      res.on('error', () => {});
      res.on('close', () => {
        isClosed = true;
        wake();
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
      const started = () => resolve({ status: res.statusCode ?? 0, next });
      res.once('data', started);
      res.once('close', started);
    });
    req.end();
  });
}
