import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { startNodeChild, type TNodeChild } from './ipc';
import { BENCH_PASSWORD, BENCH_TOKENS } from './jobs';
import { formatTable, type TCell } from './report';

/**
 * The gateway soak (npx tsx bench/gateway/soak.ts [--minutes 10] [--clients 60]):
 * the full gateway in its own process, driven on loopback for a fixed time by
 * clients that mix HTTP forward (kept-alive, with bodies), CONNECT and SOCKS5
 * tunnels, and end their connections every way a client does: a clean close,
 * an abort, a reset, a half-close, and aborts in the middle of a handshake or
 * of a transfer. Then, once every connection is gone: the gateway's open files
 * and memory are back at their baseline, and what it metered for the settled
 * connections equals the bytes their client sockets carried.
 */

const argv = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}
const minutes = option('minutes', 10);
const clients = option('clients', 60);
// Memory may grow by this much over the soak and still count as "back at its baseline" (V8 keeps some heap it grew into).
const MEMORY_SLACK_MB = option('memory-slack-mb', 24);
const HOST = '127.0.0.1';
const started = Date.now();
const children: TNodeChild[] = [];

function log(text: string): void {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
const basic = (username: string) => `Basic ${Buffer.from(`${username}:${BENCH_PASSWORD}`).toString('base64')}`;

// --- a client socket that reads by need ---------------------------------------------
function openSocket(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, HOST);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function reader(socket: net.Socket) {
  let buf: Buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let isClosed = false;
  socket.on('data', (d: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    wake?.();
  });
  socket.on('close', () => {
    isClosed = true;
    wake?.();
  });
  socket.on('error', () => {});
  const more = async () => {
    if (isClosed) throw new Error('closed');
    await new Promise<void>((r) => (wake = r));
    wake = null;
  };
  return {
    async take(n: number): Promise<Buffer> {
      while (buf.length < n) await more();
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return out;
    },
    async head(): Promise<string> {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end >= 0) {
          const text = buf.toString('latin1', 0, end);
          buf = buf.subarray(end + 4);
          return text;
        }
        await more();
      }
    },
    async closed(): Promise<void> {
      while (!isClosed) await more().catch(() => {});
    },
  };
}

type TEnding = 'close' | 'abort' | 'reset' | 'half-close';
const ENDINGS: TEnding[] = ['close', 'abort', 'reset', 'half-close'];

function end(socket: net.Socket, how: Exclude<TEnding, 'half-close'>): void {
  if (how === 'close') socket.end();
  else if (how === 'abort') socket.destroy();
  else socket.resetAndDestroy();
}

// What the clients counted, per metered token: bytes on the client socket after the handshake, both ways.
const clientBytes: Record<string, number> = { soakHttp: 0, soakConnect: 0, soakSocks: 0 };
const counts = { connections: 0, requests: 0, midTransferAborts: 0, handshakeAborts: 0, errors: 0 };
let firstError: string | undefined;

async function tunnel(port: number, mode: 'connect' | 'socks5', username: string, targetPort: number) {
  const socket = await openSocket(port);
  const r = reader(socket);
  if (mode === 'connect') {
    socket.write(
      `CONNECT ${HOST}:${targetPort} HTTP/1.1\r\nHost: ${HOST}:${targetPort}\r\nProxy-Authorization: ${basic(username)}\r\n\r\n`,
    );
    const head = await r.head();
    if (!head.startsWith('HTTP/1.1 200')) throw new Error(`CONNECT refused: ${head.split('\r\n')[0]}`);
  } else {
    socket.write(Buffer.from([5, 1, 2]));
    await r.take(2);
    const user = Buffer.from(username);
    const pass = Buffer.from(BENCH_PASSWORD);
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
    if ((await r.take(2))[1] !== 0) throw new Error('SOCKS5 authentication refused');
    socket.write(Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, targetPort >> 8, targetPort & 0xff]));
    const reply = await r.take(10);
    if (reply[1] !== 0) throw new Error(`SOCKS5 refused (${reply[1]})`);
  }
  return { socket, r, handshake: socket.bytesRead + socket.bytesWritten };
}

// A tunnel to the echo origin: payloads sent and read back, then an ending; every byte settled before it ends.
async function settledTunnel(ports: TPorts, mode: 'connect' | 'socks5'): Promise<void> {
  const key = mode === 'connect' ? 'soakConnect' : 'soakSocks';
  const { socket, r, handshake } = await tunnel(ports.gateway, mode, BENCH_TOKENS[key].username, ports.echo);
  const how = pick(ENDINGS);
  for (let i = 1 + Math.floor(Math.random() * 3); i > 0; i--) {
    const payload = randomBytes(1 + Math.floor(Math.random() * 200_000));
    socket.write(payload);
    if (i === 1 && how === 'half-close') socket.end();
    await r.take(payload.length);
  }
  if (how === 'half-close') await r.closed();
  else end(socket, how);
  clientBytes[key] += socket.bytesRead + socket.bytesWritten - handshake;
  counts.connections++;
}

// Kept-alive HTTP forward requests of several sizes (some with a body), then an ending.
async function settledForward(ports: TPorts): Promise<void> {
  const socket = await openSocket(ports.gateway);
  const r = reader(socket);
  const auth = `Proxy-Authorization: ${basic(BENCH_TOKENS.soakHttp.username)}\r\n`;
  const how = pick(ENDINGS);
  const requests = 1 + Math.floor(Math.random() * 20);
  for (let i = 0; i < requests; i++) {
    const size = pick([0, 64, 1000, 65_536, 300_000]);
    const body = Math.random() < 0.3 ? randomBytes(Math.floor(Math.random() * 50_000)) : null;
    const head =
      `${body ? 'POST' : 'GET'} http://${HOST}:${ports.http}/bytes/${size} HTTP/1.1\r\nHost: ${HOST}:${ports.http}\r\n${auth}` +
      (body ? `Content-Length: ${body.length}\r\n` : '') +
      '\r\n';
    socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
    if (i === requests - 1 && how === 'half-close') socket.end();
    const answer = await r.head();
    if (!answer.startsWith('HTTP/1.1 200')) throw new Error(`forward refused: ${answer.split('\r\n')[0]}`);
    await r.take(Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? 0));
    counts.requests++;
  }
  if (how === 'half-close') await r.closed();
  else end(socket, how);
  clientBytes.soakHttp += socket.bytesRead + socket.bytesWritten;
  counts.connections++;
}

// Connections left in the middle: of a handshake, of a download, of an upload (not compared byte for byte).
async function unsettled(ports: TPorts): Promise<void> {
  const kind = pick(['connect-head', 'socks-greeting', 'forward-download', 'tunnel-download', 'socks-upload'] as const);
  const how = pick(['abort', 'reset'] as const);
  if (kind === 'connect-head' || kind === 'socks-greeting') {
    const socket = await openSocket(ports.gateway);
    socket.on('error', () => {});
    socket.write(
      kind === 'connect-head' ? `CONNECT ${HOST}:${ports.echo} HTTP/1.1\r\nHost: x\r\n` : Buffer.from([5, 1, 2]),
    );
    await sleep(Math.random() * 20);
    end(socket, how);
    counts.handshakeAborts++;
    return;
  }
  if (kind === 'forward-download') {
    const socket = await openSocket(ports.gateway);
    const r = reader(socket);
    socket.write(
      `GET http://${HOST}:${ports.http}/bytes/5000000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(BENCH_TOKENS.soakAbortHttp.username)}\r\n\r\n`,
    );
    await r.head();
    await r.take(1 + Math.floor(Math.random() * 1_000_000));
    end(socket, how);
  } else {
    const mode = kind === 'tunnel-download' ? 'connect' : 'socks5';
    const username = mode === 'connect' ? BENCH_TOKENS.soakAbortHttp.username : BENCH_TOKENS.soakAbortSocks.username;
    const { socket, r } = await tunnel(
      ports.gateway,
      mode,
      username,
      kind === 'tunnel-download' ? ports.source : ports.echo,
    );
    if (kind === 'tunnel-download') {
      socket.write('50000000\n');
      await r.take(1 + Math.floor(Math.random() * 2_000_000));
    } else {
      socket.write(randomBytes(500_000));
      await r.take(1000);
    }
    end(socket, how);
  }
  counts.midTransferAborts++;
}

type TPorts = { gateway: number; http: number; echo: number; source: number };

async function drive(ports: TPorts, until: number): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        try {
          const dice = Math.random();
          if (dice < 0.3) await settledForward(ports);
          else if (dice < 0.55) await settledTunnel(ports, 'connect');
          else if (dice < 0.8) await settledTunnel(ports, 'socks5');
          else await unsettled(ports);
        } catch (err) {
          counts.errors++;
          firstError ??= (err as Error).message;
          await sleep(10);
        }
      }
    }),
  );
}

const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function settle(gateway: TNodeChild): Promise<{ fds: number; rssMb: number; heapMb: number }> {
  while ((await gateway.call<number>('connections')) > 0) await sleep(200);
  await sleep(500);
  await gateway.call('gc');
  const m = await gateway.call<{ heapUsed: number; external: number }>('gc');
  await sleep(300);
  return { fds: fdCount(gateway.pid), rssMb: rssMb(gateway.pid), heapMb: (m.heapUsed + m.external) / 1024 / 1024 };
}

async function main(): Promise<boolean> {
  log(`gateway soak: ${minutes} min, ${clients} clients`);
  const origin = await startNodeChild('origin.ts');
  children.push(origin);
  const originPorts = origin.ready.ports as { source: number; http: number; echo: number };
  const gateway = await startNodeChild('gateway-child.ts', [], ['--expose-gc', '--initial-old-space-size=64']);
  children.push(gateway);
  const tokenIds = gateway.ready.tokenIds as Record<keyof typeof BENCH_TOKENS, number>;
  const ports: TPorts = {
    gateway: gateway.ready.port as number,
    http: originPorts.http,
    echo: originPorts.echo,
    source: originPorts.source,
  };

  // A short warm-up of the same load, so that the baseline includes what the first connections load once.
  await drive(ports, Date.now() + 20_000);
  const warmBytes = { ...clientBytes };
  const baseline = await settle(gateway);
  const warmUsage = await gateway.call<{ tokenId: number; trafficUsedBytes: number }[]>('usage', {
    tokenIds: Object.values(tokenIds),
  });
  log(
    `baseline: ${baseline.fds} open files, RSS ${baseline.rssMb.toFixed(1)} MB, JS heap ${baseline.heapMb.toFixed(1)} MB`,
  );

  const deadline = Date.now() + minutes * 60_000;
  const progress = setInterval(() => {
    log(
      `${counts.connections} settled connections, ${counts.requests} requests, ${counts.midTransferAborts + counts.handshakeAborts} aborted, ` +
        `${counts.errors} errors; gateway ${fdCount(gateway.pid)} open files, RSS ${rssMb(gateway.pid).toFixed(0)} MB`,
    );
  }, 30_000);
  await drive(ports, deadline);
  clearInterval(progress);
  const after = await settle(gateway);
  const usage = await gateway.call<{ tokenId: number; trafficUsedBytes: number; tokenUsageBytes: number }[]>('usage', {
    tokenIds: Object.values(tokenIds),
  });

  const rows: TCell[][] = [];
  let isOk = true;
  for (const [key, label] of [
    ['soakHttp', 'HTTP forward'],
    ['soakConnect', 'CONNECT'],
    ['soakSocks', 'SOCKS5'],
  ] as const) {
    const id = tokenIds[key];
    const used = usage.find((u) => u.tokenId === id)!;
    const before = warmUsage.find((u) => u.tokenId === id)!.trafficUsedBytes;
    const metered = used.trafficUsedBytes - before;
    const sent = clientBytes[key] - warmBytes[key];
    const isExact = metered === sent && used.tokenUsageBytes === used.trafficUsedBytes;
    isOk &&= isExact;
    rows.push([label, sent, metered, isExact ? 'yes' : `NO (${metered - sent})`]);
  }
  const fdsOk = after.fds <= baseline.fds;
  const memoryOk = after.rssMb - baseline.rssMb <= MEMORY_SLACK_MB;
  isOk &&= fdsOk && memoryOk;
  const lines = [
    `Gateway soak, ${new Date().toISOString().slice(0, 10)}: ${minutes} min, ${clients} clients; ${counts.connections} settled connections ` +
      `(${counts.requests} forwarded requests; counts include the 20 s warm-up), ${counts.midTransferAborts} aborted mid-transfer, ${counts.handshakeAborts} mid-handshake, ` +
      `${counts.errors} client errors${firstError ? ` (first: ${firstError})` : ''}`,
    '',
    formatTable(
      ['after every connection closed', 'baseline', 'after the soak', 'result'],
      [
        ['open files', baseline.fds, after.fds, fdsOk ? 'back at baseline' : 'LEAK'],
        [
          'RSS MB',
          baseline.rssMb.toFixed(1),
          after.rssMb.toFixed(1),
          memoryOk ? `within ${MEMORY_SLACK_MB} MB` : 'GREW',
        ],
        ['JS heap MB (after GC)', baseline.heapMb.toFixed(1), after.heapMb.toFixed(1), '-'],
      ],
    ),
    '',
    'Metering of the settled connections: bytes their client sockets carried after the handshake, against traffic_used_bytes',
    '',
    formatTable(['protocol', 'client bytes', 'metered', 'equal'], rows),
    '',
    `Result: ${isOk ? 'PASS' : 'FAIL'}. Run time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  ];
  console.log(lines.join('\n'));
  return isOk;
}

let isOk = false;
try {
  isOk = await main();
} finally {
  await Promise.allSettled(children.map((c) => c.stop()));
}
process.exit(isOk ? 0 : 1);
