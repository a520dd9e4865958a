import http from 'node:http';
import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { exitNodes, ipListEntries, proxyTokens, users, type TDb } from '@proxy/db';
export {
  createTestDatabase,
  describeOnPglite,
  describeOnPostgres,
  isPostgres,
  itOnPglite,
  itOnPostgres,
} from '@proxy/db/testing';

let seq = 0;

/** Inserts a user row (the gateway only needs its id). */
export async function insertUser(db: TDb): Promise<number> {
  seq += 1;
  const [row] = await db
    .insert(users)
    .values({
      username: `gw${seq}_${Date.now()}`,
      email: `gw${seq}_${Date.now()}@example.com`,
      apiKey: `pk_gw_${seq}_${Date.now()}`,
      inviteCode: `GW${seq}${Date.now()}`,
    })
    .returning({ id: users.id });
  return row.id;
}

/** Inserts an exit node. */
export async function insertExit(db: TDb, values: Partial<typeof exitNodes.$inferInsert> = {}): Promise<number> {
  const [row] = await db
    .insert(exitNodes)
    .values({ kind: 'residential', egress: 'direct', country: 'us', ...values })
    .returning({ id: exitNodes.id });
  return row.id;
}

/** Inserts a token; defaults to an enabled static residential HTTP token valid for a day. */
export async function insertToken(
  db: TDb,
  values: Partial<typeof proxyTokens.$inferInsert> & { userId: number; username: string },
): Promise<number> {
  const [row] = await db
    .insert(proxyTokens)
    .values({
      product: 'static',
      category: 'isp',
      billing: 'ip',
      network: 'HTTP',
      country: 'us',
      password: 'secret',
      expiresAt: new Date(Date.now() + 86_400_000),
      ...values,
    })
    .returning({ id: proxyTokens.id });
  return row.id;
}

/** Adds an IP list entry for a single IPv4 address. */
export async function insertIpEntry(
  db: TDb,
  userId: number,
  list: 'whitelist' | 'blacklist',
  ipv4: string,
): Promise<void> {
  const n = ipv4.split('.').reduce((acc, part) => acc * 256n + BigInt(part), 0n);
  const hex = n.toString(16).padStart(32, '0');
  await db
    .insert(ipListEntries)
    .values({ userId, list, entry: ipv4, kind: 'single', family: 4, startHex: hex, endHex: hex });
}

/** Bumps the version row, as the API does with every change. */
export async function bump(db: TDb): Promise<void> {
  await db.execute(sql`UPDATE gateway_state SET version = version + 1 WHERE id = 1`);
}

/** Listens on loopback; resolves the port. */
export function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)));
}

/** An HTTP origin that answers with the address it saw and echoes request bodies. */
export async function startOrigin(): Promise<{ port: number; close(): void }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url?.startsWith('/bytes/')) {
        const n = Number(req.url.slice(7));
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
        return res.end(Buffer.alloc(n, 97));
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`seen-from=${req.socket.remoteAddress} body=${body.length}`);
    });
  });
  const port = await listen(server);
  return { port, close: () => server.close() };
}

/** A TCP echo server. */
export async function startEcho(): Promise<{ port: number; close(): void }> {
  const server = net.createServer({ allowHalfOpen: true }, (s) => {
    s.on('error', () => s.destroy());
    s.pipe(s);
  });
  const port = await listen(server);
  return { port, close: () => server.close() };
}

/**
 * A minimal upstream HTTP CONNECT proxy with Basic credentials whose outgoing
 * connections leave from a chosen loopback address, so the origin can tell
 * which upstream a request came through.
 */
export async function startUpstreamHttpProxy(options: {
  localAddress: string;
  username: string;
  password: string;
}): Promise<{ port: number; connects: number; close(): void }> {
  const state = { connects: 0 };
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket: net.Socket, head) => {
    if (req.headers['proxy-authorization'] !== expected)
      return socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const [host, port] = (req.url ?? '').split(':');
    state.connects += 1;
    const target = net.connect({ host, port: Number(port), localAddress: options.localAddress }, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      socket.pipe(target);
      target.pipe(socket);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  const port = await listen(server);
  return {
    port,
    get connects() {
      return state.connects;
    },
    close: () => server.close(),
  };
}

/** HTTP GET through an HTTP proxy with Basic credentials, via CONNECT (like curl -p) or plain forwarding. */
export async function fetchViaProxy(options: {
  proxyPort: number;
  username: string;
  password: string;
  url: string;
  tunnel?: boolean;
}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const target = new URL(options.url);
  const auth = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  if (!options.tunnel) {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port: options.proxyPort,
        method: 'GET',
        path: options.url,
        headers: { host: target.host, 'proxy-authorization': auth },
        agent: false,
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  }
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: options.proxyPort,
      method: 'CONNECT',
      path: target.host,
      headers: { 'proxy-authorization': auth },
      agent: false,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers });
      }
      const inner = http.request({
        createConnection: () => socket,
        path: target.pathname,
        headers: { host: target.host, connection: 'close' },
      });
      inner.on('response', (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body, headers: r.headers }));
      });
      inner.on('error', reject);
      inner.end();
    });
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers }));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Waits until the check passes (the gateway reloads and flushes on timers). No
 * deadline of its own: the test's timeout bounds it, so a busy machine only makes it slower.
 */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 25));
}

/** A token's metered bytes as the database has them. */
export async function usedBytesOf(db: TDb, tokenId: number): Promise<number> {
  const [row] = await db
    .select({ used: proxyTokens.trafficUsedBytes })
    .from(proxyTokens)
    .where(eq(proxyTokens.id, tokenId));
  return row.used;
}
