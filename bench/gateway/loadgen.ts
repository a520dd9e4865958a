// Past ~400 lines: the load generator's one process runs every workload (bulk, keep-alive, a tunnel per request,
// idle tunnels, metering) over each way in (CONNECT, SOCKS5, forwarding, plain socket), sharing their socket helpers.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { serveParent, type TRequest } from './ipc';
import type { TBulkResult, TIdleResult, TJob, TMeterResult, TOvershootResult, TPath, TRateResult } from './jobs';

/**
 * The load generator, in a process of its own (never the proxy's): bulk
 * transfers, keep-alive requests, a tunnel per request, idle tunnels and the
 * metering check, over CONNECT, SOCKS5, absolute-URI forwarding or a plain socket.
 */

const HEAD_END = Buffer.from('\r\n\r\n');
const HOST = '127.0.0.1';

function basic(auth: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function connectSocket(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, HOST);
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

// Buffers a socket's bytes so that handshakes can be read message by message.
function createReader(socket: net.Socket) {
  let buf: Buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const onData = (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    wake?.();
  };
  const onError = (err: Error) => {
    failure = err;
    wake?.();
  };
  const onClose = () => {
    failure ??= new Error('closed by the proxy');
    wake?.();
  };
  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('close', onClose);
  const waitMore = async () => {
    if (failure) throw failure;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    if (failure) throw failure;
  };
  return {
    async take(n: number): Promise<Buffer> {
      while (buf.length < n) await waitMore();
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return out;
    },
    /** An HTTP head (through the blank line). */
    async head(): Promise<string> {
      for (;;) {
        const end = buf.indexOf(HEAD_END);
        if (end >= 0) {
          const text = buf.toString('latin1', 0, end);
          buf = buf.subarray(end + 4);
          return text;
        }
        if (buf.length > 65536) throw new Error('head too long');
        await waitMore();
      }
    },
    /** An HTTP response with a Content-Length body; answers the head. */
    async response(): Promise<string> {
      const head = await this.head();
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) throw new Error(`no content-length: ${head.split('\r\n')[0]}`);
      await this.take(Number(length[1]));
      return head;
    },
    /** Stops buffering; answers the bytes read but not consumed. */
    detach(): Buffer {
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.on('error', () => {});
      return buf;
    },
  };
}

type TReader = ReturnType<typeof createReader>;

/** Opens a connection and does the proxy handshake to the target; forward and plain paths need none. */
async function openTunnel(
  path: TPath,
  targetPort: number,
): Promise<{ socket: net.Socket; reader: TReader; handshakeRead: number; handshakeWritten: number }> {
  const socket = await connectSocket(path.port);
  const reader = createReader(socket);
  try {
    if (path.mode === 'connect') {
      const auth = path.auth ? `Proxy-Authorization: ${basic(path.auth)}\r\n` : '';
      socket.write(`CONNECT ${HOST}:${targetPort} HTTP/1.1\r\nHost: ${HOST}:${targetPort}\r\n${auth}\r\n`);
      const head = await reader.head();
      if (!/^HTTP\/1\.[01] 200/.test(head)) throw new Error(`CONNECT refused: ${head.split('\r\n')[0]}`);
    } else if (path.mode === 'socks5') {
      socket.write(Buffer.from([5, 1, path.auth ? 2 : 0]));
      const method = await reader.take(2);
      if (method[1] === 2 && path.auth) {
        const user = Buffer.from(path.auth.username);
        const pass = Buffer.from(path.auth.password);
        socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
        const status = await reader.take(2);
        if (status[1] !== 0) throw new Error('SOCKS5 authentication refused');
      } else if (method[1] !== 0) {
        throw new Error(`SOCKS5 method refused (${method[1]})`);
      }
      socket.write(Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, targetPort >> 8, targetPort & 0xff]));
      const reply = await reader.take(4);
      if (reply[1] !== 0) throw new Error(`SOCKS5 request refused (${reply[1]})`);
      const rest = reply[3] === 1 ? 6 : reply[3] === 4 ? 18 : (await reader.take(1))[0] + 2;
      await reader.take(rest);
    }
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return { socket, reader, handshakeRead: socket.bytesRead, handshakeWritten: socket.bytesWritten };
}

function requestBytes(path: TPath, targetPort: number, resource = '/'): Buffer {
  if (path.mode === 'forward') {
    const auth = path.auth ? `Proxy-Authorization: ${basic(path.auth)}\r\n` : '';
    return Buffer.from(
      `GET http://${HOST}:${targetPort}${resource} HTTP/1.1\r\nHost: ${HOST}:${targetPort}\r\n${auth}\r\n`,
      'latin1',
    );
  }
  return Buffer.from(`GET ${resource} HTTP/1.1\r\nHost: ${HOST}:${targetPort}\r\n\r\n`, 'latin1');
}

// --- scenarios --------------------------------------------------------------

async function runBulk(job: Extract<TJob, { type: 'bulk' }>): Promise<TBulkResult> {
  const { socket, reader } = await openTunnel(job.path, job.targetPort);
  let received = reader.detach().length;
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= job.bytes) resolve();
    });
    socket.once('error', reject);
    socket.once('close', () =>
      received >= job.bytes ? resolve() : reject(new Error(`closed after ${received} bytes`)),
    );
    socket.write(`${job.bytes}\n`);
  });
  const seconds = (performance.now() - started) / 1000;
  socket.destroy();
  return { bytes: received, seconds };
}

async function runKeepAlive(job: Extract<TJob, { type: 'keepalive' }>): Promise<TRateResult> {
  const request = requestBytes(job.path, job.targetPort);
  const begin = performance.now();
  const windowStart = begin + job.warmupMs;
  const deadline = windowStart + job.durationMs;
  const latencies: number[] = [];
  let completed = 0;
  let errors = 0;
  let reconnects = 0;
  let answered = 0;
  let firstError: string | undefined;
  let running = job.connections;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finish = resolve));

  // One connection's loop: send, read the whole response, send again; reconnect when the proxy closes.
  function startWorker(): void {
    let startedAt = performance.now();
    // True when a request is owed an answer across a reconnection.
    let isPending = false;
    const open = () => {
      const socket = net.connect(job.path.port, HOST);
      socket.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let isWaiting = false;
      let isRetired = false;
      const send = (isResend = false) => {
        const now = performance.now();
        if (now >= deadline) {
          isRetired = true;
          socket.destroy();
          if (--running === 0) finish();
          return;
        }
        if (!isResend) startedAt = now;
        isWaiting = true;
        socket.write(request);
      };
      socket.once('connect', () => send(isPending));
      socket.on('error', (err) => {
        firstError ??= err.message;
      });
      socket.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        const end = buf.indexOf(HEAD_END);
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const total = end + 4 + (length ? Number(length[1]) : 0);
        if (buf.length < total) return;
        buf = buf.subarray(total);
        isWaiting = false;
        isPending = false;
        answered++;
        const now = performance.now();
        if (!head.startsWith('HTTP/1.1 200') && !head.startsWith('HTTP/1.0 200')) {
          errors++;
          firstError ??= head.split('\r\n')[0];
        } else if (startedAt >= windowStart && now <= deadline) {
          completed++;
          latencies.push(now - startedAt);
        }
        if (/\r\nconnection:\s*close/i.test(head) || !length) {
          // The proxy does not keep the connection: the next request pays for a new one, as its clients would.
          isRetired = true;
          socket.destroy();
          reconnects++;
          startedAt = performance.now();
          isPending = true;
          if (startedAt >= deadline) {
            if (--running === 0) finish();
            return;
          }
          open();
          return;
        }
        send();
      });
      socket.on('close', () => {
        if (isRetired) return;
        // A proxy that closes a kept connection without saying so: the client resends on a new
        // connection, as browsers do, and the request's time includes the reconnection.
        if (isWaiting && buf.length > 0) errors++;
        isPending = isWaiting && buf.length === 0;
        reconnects++;
        if (performance.now() >= deadline) {
          if (--running === 0) finish();
          return;
        }
        open();
      });
    };
    open();
  }

  for (let i = 0; i < job.connections; i++) startWorker();
  await allDone;
  latencies.sort((a, b) => a - b);
  return {
    completed,
    total: answered,
    errors,
    reconnects,
    seconds: job.durationMs / 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    firstError,
  };
}

async function runTunnels(job: Extract<TJob, { type: 'tunnels' }>): Promise<TRateResult> {
  const request = Buffer.from(`GET / HTTP/1.1\r\nHost: ${HOST}:${job.targetPort}\r\n\r\n`, 'latin1');
  const begin = performance.now();
  const windowStart = begin + job.warmupMs;
  const deadline = windowStart + job.durationMs;
  const latencies: number[] = [];
  let completed = 0;
  let total = 0;
  let errors = 0;
  let firstError: string | undefined;

  // A client: new connection, handshake, one request, close; again until the deadline.
  async function client(): Promise<void> {
    while (performance.now() < deadline) {
      const started = performance.now();
      let socket: net.Socket | undefined;
      try {
        const tunnel = await openTunnel(job.path, job.targetPort);
        socket = tunnel.socket;
        socket.write(request);
        const head = await tunnel.reader.response();
        if (!head.startsWith('HTTP/1.1 200')) throw new Error(head.split('\r\n')[0]);
        const now = performance.now();
        total++;
        if (started >= windowStart && now <= deadline) {
          completed++;
          latencies.push(now - started);
        }
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
        // Do not spin on a refusing proxy.
        await new Promise((r) => setTimeout(r, 5));
      } finally {
        socket?.destroy();
      }
    }
  }

  await Promise.all(Array.from({ length: job.clients }, () => client()));
  latencies.sort((a, b) => a - b);
  return {
    completed,
    total,
    errors,
    reconnects: 0,
    seconds: job.durationMs / 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    firstError,
  };
}

let idle: net.Socket[] = [];

async function openIdle(job: Extract<TJob, { type: 'idleOpen' }>): Promise<TIdleResult> {
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  // A hundred handshakes at a time, like a busy client pool.
  async function opener(): Promise<void> {
    while (next < job.count) {
      next++;
      try {
        const { socket, reader } = await openTunnel(job.path, job.targetPort);
        reader.detach();
        idle.push(socket);
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
      }
    }
  }
  await Promise.all(Array.from({ length: 100 }, () => opener()));
  return { opened: idle.length, errors, firstError };
}

async function closeIdle(): Promise<{ closed: number }> {
  const sockets = idle;
  idle = [];
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.destroyed) return resolve();
          s.once('close', () => resolve());
          s.destroy();
        }),
    ),
  );
  return { closed: sockets.length };
}

// Known payloads through one token: bytes that crossed the client socket after the handshake, both ways.
async function runMeter(job: Extract<TJob, { type: 'meter' }>): Promise<TMeterResult> {
  let clientBytes = 0;
  let connections = 0;
  let requests = 0;
  if (job.path.mode === 'forward') {
    // Keep-alive requests of several sizes, one with a request body, on two connections.
    for (const sizes of [
      [0, 1, 1000, 65_536, 1_000_003],
      [17, 250_000],
    ]) {
      const { socket, reader } = await openTunnel(job.path, job.targetPort);
      connections++;
      for (const size of sizes) {
        socket.write(requestBytes(job.path, job.targetPort, `/bytes/${size}`));
        await reader.response();
        requests++;
      }
      const body = randomBytes(12_345);
      const auth = job.path.auth ? `Proxy-Authorization: ${basic(job.path.auth)}\r\n` : '';
      socket.write(
        `POST http://${HOST}:${job.targetPort}/upload HTTP/1.1\r\nHost: ${HOST}:${job.targetPort}\r\n${auth}Content-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      await reader.response();
      requests++;
      reader.detach();
      clientBytes += socket.bytesRead + socket.bytesWritten;
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
    return { clientBytes, connections, requests };
  }
  // Tunnels to the echo origin: send a payload, read it all back, close.
  for (const size of [1, 4096, 1_048_573, 5_000_011]) {
    const tunnel = await openTunnel(job.path, job.targetPort);
    const { socket, reader } = tunnel;
    connections++;
    const payload = randomBytes(size);
    socket.write(payload);
    await reader.take(size);
    reader.detach();
    clientBytes += socket.bytesRead - tunnel.handshakeRead + (socket.bytesWritten - tunnel.handshakeWritten);
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }
  return { clientBytes, connections, requests };
}

// Endless downloads on `connections` connections at once (the source origin asked for more than any allowance, or the
// http origin's endless body) until the proxy closes every one: all the bytes the clients received after the handshake.
async function runOvershoot(job: Extract<TJob, { type: 'overshoot' }>): Promise<TOvershootResult> {
  const t0 = performance.now();
  let bytes = 0;
  let refused = 0;
  let firstError: string | undefined;
  async function one(): Promise<void> {
    let socket: net.Socket;
    let handshakeRead = 0;
    try {
      if (job.path.mode === 'forward') {
        socket = await connectSocket(job.path.port);
        const auth = job.path.auth ? `Proxy-Authorization: ${basic(job.path.auth)}\r\n` : '';
        socket.write(
          `GET http://${HOST}:${job.targetPort}/endless HTTP/1.1\r\nHost: ${HOST}:${job.targetPort}\r\n${auth}\r\n`,
        );
      } else {
        const tunnel = await openTunnel(job.path, job.targetPort);
        socket = tunnel.socket;
        const early = tunnel.reader.detach();
        handshakeRead = tunnel.handshakeRead - early.length;
        socket.write(`${Number.MAX_SAFE_INTEGER}\n`);
      }
    } catch (err) {
      refused++;
      firstError ??= (err as Error).message;
      return;
    }
    socket.on('error', () => {});
    socket.resume();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    bytes += socket.bytesRead - handshakeRead;
  }
  await Promise.all(Array.from({ length: job.connections }, () => one()));
  return { bytes, seconds: (performance.now() - t0) / 1000, refused, firstError };
}

serveParent(
  {},
  {
    run(request: TRequest) {
      const job = request.job as TJob;
      switch (job.type) {
        case 'bulk':
          return runBulk(job);
        case 'keepalive':
          return runKeepAlive(job);
        case 'tunnels':
          return runTunnels(job);
        case 'idleOpen':
          return openIdle(job);
        case 'idleClose':
          return closeIdle();
        case 'meter':
          return runMeter(job);
        case 'overshoot':
          return runOvershoot(job);
      }
    },
  },
);
process.on('SIGTERM', () => process.exit(0));
