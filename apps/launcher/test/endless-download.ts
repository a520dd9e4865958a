import net from 'node:net';

/**
 * Test support for traffic allowances at full loopback speed: an origin whose
 * every answer is an endless chunked body (written as fast as the reader
 * takes it), and clients that fetch it through the gateway on a kept-alive
 * connection and count every byte they receive until the gateway closes it.
 */

const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const FRAME = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);
const HEAD = Buffer.from(
  'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
);

/** An origin answering every request with an endless body. */
export async function startEndlessOrigin(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    let head = '';
    const pour = () => {
      while (!socket.destroyed && socket.write(FRAME)) {
        // as fast as the reader takes it
      }
    };
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.removeListener('data', onData);
      socket.write(HEAD);
      socket.on('drain', pour);
      pour();
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** How the client reaches the origin through the gateway. */
export type TDownloadVia = 'http' | 'connect' | 'socks5';

/** What a download got: every byte the client socket received, and the first bytes as text (the status line). */
export type TDownload = { bytes: number; head: string };

/**
 * Fetches the endless body from 127.0.0.1:`originPort` through the gateway
 * at 127.0.0.1:`port`, on a kept-alive connection; resolves once the gateway
 * closes the connection (or refuses it), with all the client received.
 */
export function download(options: {
  port: number;
  originPort: number;
  username: string;
  password: string;
  via: TDownloadVia;
}): Promise<TDownload> {
  const { port, originPort, username, password, via } = options;
  const get = (target: string) =>
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\nConnection: keep-alive\r\n`;
  const basic = `Proxy-Authorization: Basic ${Buffer.from(`${username}:${password}`).toString('base64')}\r\n`;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    let stage = via === 'socks5' ? 0 : 3;
    socket.on('error', () => {});
    socket.once('close', () => resolve({ bytes: socket.bytesRead, head }));
    socket.on('data', (d: Buffer) => {
      if (head.length < 200) head += d.toString('latin1', 0, Math.min(d.length, 200 - head.length));
      if (via !== 'socks5') {
        // CONNECT: once the tunnel is open, the request goes through it.
        if (stage === 3 && via === 'connect' && head.includes('\r\n\r\n')) {
          stage = 4;
          socket.write(`${get('/')}\r\n`);
        }
        return;
      }
      // SOCKS5: greeting, username/password, then the request; each answer is one small message.
      if (stage === 0) {
        stage = 1;
        const u = Buffer.from(username);
        const p = Buffer.from(password);
        socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([p.length]), p]));
      } else if (stage === 1) {
        if (d[1] !== 0) return;
        stage = 2;
        socket.write(Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, originPort >> 8, originPort & 0xff]));
      } else if (stage === 2) {
        stage = 5;
        if (d[1] === 0) socket.write(`${get('/')}\r\n`);
      }
    });
    socket.once('connect', () => {
      if (via === 'http') socket.write(`${get(`http://127.0.0.1:${originPort}/`)}${basic}\r\n`);
      else if (via === 'connect')
        socket.write(`CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${basic}\r\n`);
      else socket.write(Buffer.from([5, 1, 2]));
    });
  });
}
