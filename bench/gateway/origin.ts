import net from 'node:net';
import { serveParent } from './ipc';

/**
 * The local origins every path of the benchmark reaches, in a process of their own:
 * - source: reads a decimal byte count and a newline, writes that many bytes, closes;
 * - http: a minimal HTTP/1.1 server (keep-alive, Content-Length bodies read and
 *   ignored): `/bytes/N` answers N bytes, `/endless` an endless body (until the
 *   client closes), anything else a 64-byte body;
 * - echo: writes back what it reads;
 * - hold: accepts connections and keeps them open, silent (idle tunnels).
 * Kept minimal so that the origin costs little CPU next to the proxy under test.
 */

const CHUNK = Buffer.alloc(1024 * 1024, 0x61);
const SMALL_BODY = Buffer.alloc(64, 0x62);
const SMALL_RESPONSE = Buffer.concat([
  Buffer.from(
    `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${SMALL_BODY.length}\r\n\r\n`,
    'latin1',
  ),
  SMALL_BODY,
]);
const HEAD_END = Buffer.from('\r\n\r\n');

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', 4096, () => resolve((server.address() as net.AddressInfo).port)),
  );
}

function onSourceConnection(socket: net.Socket): void {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  let line = '';
  const onData = (chunk: Buffer) => {
    line += chunk.toString('latin1');
    const nl = line.indexOf('\n');
    if (nl < 0) return;
    socket.removeListener('data', onData);
    let left = Number(line.slice(0, nl));
    const pump = () => {
      while (left > 0) {
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
  };
  socket.on('data', onData);
}

function onHttpConnection(socket: net.Socket): void {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  let buf: Buffer = Buffer.alloc(0);
  let bodyLeft = 0;
  let response: Buffer | null = null;
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const out: Buffer[] = [];
    for (;;) {
      if (response) {
        const take = Math.min(bodyLeft, buf.length);
        bodyLeft -= take;
        buf = buf.subarray(take);
        if (bodyLeft > 0) break;
        out.push(response);
        response = null;
      }
      const end = buf.indexOf(HEAD_END);
      if (end < 0) break;
      const head = buf.toString('latin1', 0, end);
      buf = buf.subarray(end + 4);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      bodyLeft = length ? Number(length[1]) : 0;
      const bytes = /^[A-Z]+ \S*\/bytes\/(\d+)/.exec(head);
      if (/^[A-Z]+ \S*\/endless /.test(head)) {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n');
        const pour = () => {
          while (!socket.destroyed && socket.write(CHUNK)) {
            // as fast as the reader takes it
          }
        };
        socket.on('drain', pour);
        pour();
        return;
      }
      if (bytes) {
        const n = Number(bytes[1]);
        response = Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${n}\r\n\r\n`,
            'latin1',
          ),
          Buffer.alloc(n, 0x63),
        ]);
      } else {
        response = SMALL_RESPONSE;
      }
    }
    if (out.length === 1) socket.write(out[0]);
    else if (out.length > 1) socket.write(Buffer.concat(out));
  });
}

const source = net.createServer(onSourceConnection);
const http = net.createServer(onHttpConnection);
const echo = net.createServer({ allowHalfOpen: true }, (socket) => {
  socket.on('error', () => socket.destroy());
  socket.pipe(socket);
});
const held = new Set<net.Socket>();
const hold = net.createServer((socket) => {
  held.add(socket);
  socket.on('error', () => socket.destroy());
  socket.on('close', () => held.delete(socket));
  socket.resume();
});

const ports = {
  source: await listen(source),
  http: await listen(http),
  echo: await listen(echo),
  hold: await listen(hold),
};
serveParent({ ports }, { held: () => held.size });
process.on('SIGTERM', () => process.exit(0));
