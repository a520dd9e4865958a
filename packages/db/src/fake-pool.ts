import http from 'node:http';
import net from 'node:net';
import { compilePoolTemplate, type TPoolPlaceholder, type TPoolTemplate } from '@proxy/contract';

/**
 * A local stand-in for an upstream pool (a backconnect provider), on real sockets on loopback, for the suites of
 * the API, the gateway and e2e (docs/pools.md, "Testing with a fake pool"). It reads usernames by its own
 * template and spelling, as a provider does; refuses wrong credentials (HTTP 407, SOCKS5 RFC 1929 status 1) and
 * areas it does not serve (HTTP 403 or 407 with a provider-like body, SOCKS5 reply 2 or 4); keeps one exit per
 * session id for the session's minutes (on its own clock); and reaches loopback targets only, leaving from the
 * exit's own loopback address so an echo sees which exit carried a request. Here, in the db package, because
 * the API's suites may not import the gateway's test support (the layout's rule), and both need it.
 */

/** An area as the fake's provider spells it ('' or absent: any). */
export type TFakePoolArea = { country: string; state?: string; city?: string };

/** How the fake refuses an area it does not serve. */
export type TFakeAreaRefusal = { http: 403 | 407; socks: 0x02 | 0x04 };

/** Settings of a fake pool. */
export type TFakePoolOptions = {
  protocol: 'http-connect' | 'socks5';
  /** Its username grammar, in the template language of packages/contract/src/pools-template.ts. */
  template: string;
  /** The account name ({user}) and password it accepts. */
  user: string;
  password: string;
  /** Areas it serves, spelled its way (case counts). */
  areas: TFakePoolArea[];
  /** How it refuses another area (default HTTP 403, SOCKS5 reply 2). */
  areaRefusal?: TFakeAreaRefusal;
  /** Loopback addresses its exits leave from (default 127.0.1.1 to 127.0.1.3): one exit each. */
  exitAddresses?: string[];
  /** Sticky minutes of a session whose username carries none (default 10). */
  defaultMinutes?: number;
  /** Its clock in ms (tests move it; default Date.now). */
  now?: () => number;
};

/** A connection the fake accepted and tunnelled: who asked, for what, and which exit carried it. */
export type TFakePoolTunnel = {
  username: string;
  country: string;
  state: string;
  city: string;
  session: string;
  exitIp: string;
  target: string;
};

/** Counters of a fake pool. */
export type TFakePoolStats = {
  /** TCP connections accepted. */
  connections: number;
  tunnels: number;
  badCredentials: number;
  areaRefusals: number;
  /** Refused by fail(), or a target off loopback. */
  otherRefusals: number;
  /** Bytes from clients to targets, and back, through its tunnels. */
  bytesUp: number;
  bytesDown: number;
  /** Tunnels it dropped (drop()) once the client had sent bytes, before any byte from the target. */
  dropped: number;
  /** Bytes read and written on its client sockets that have closed (requests, answers, refusals and tunnels). */
  socketBytes: number;
};

/** A running fake pool. */
export type TFakePool = {
  host: string;
  port: number;
  /** The tunnels it opened, in order (the side channel of a SOCKS5 exit; HTTP also answers X-Exit-IP). */
  tunnels: TFakePoolTunnel[];
  stats(): TFakePoolStats;
  /** From now on it refuses every connection (HTTP 502, SOCKS5 reply 1) until recover(). */
  fail(): void;
  /** From now on it accepts TCP connections and never answers them, until recover(). */
  stall(): void;
  /** From now on it opens tunnels, then drops each once the client sends, before the target's answer; until recover(). */
  drop(): void;
  recover(): void;
  /** Forgets every sticky session. */
  forgetSessions(): void;
  close(): Promise<void>;
};

/** The bodies and headers it refuses with, as providers word them. */
export const FAKE_POOL_TEXTS = {
  badCredentials: 'Proxy Authentication Required: invalid username or password',
  areaNotServed: 'No peers available in the requested location (country, state or city not served)',
  failed: 'Bad Gateway: upstream temporarily unavailable',
  targetRefused: 'Forbidden: target not allowed',
} as const;

type TParsedUser = Record<TPoolPlaceholder, string>;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A regex of the template: one group per placeholder, optional segments optional; area values stop at separators.
function usernameReader(template: TPoolTemplate): (username: string) => TParsedUser | null {
  const names: TPoolPlaceholder[] = [];
  const stop = [...template.separators].map(escape).join('');
  const valueOf: Record<TPoolPlaceholder, string> = {
    user: '(.+?)',
    country: stop ? `([^${stop}]+)` : '(.+?)',
    state: stop ? `([^${stop}]+)` : '(.+?)',
    city: stop ? `([^${stop}]+)` : '(.+?)',
    session: '([a-z0-9]+)',
    minutes: '([0-9]+)',
  };
  let source = '';
  for (const segment of template.segments) {
    let part = '';
    for (const p of segment.parts) {
      if (p.kind === 'text') part += escape(p.text);
      else {
        names.push(p.name);
        part += valueOf[p.name];
      }
    }
    source += segment.isOptional ? `(?:${part})?` : part;
  }
  const regex = new RegExp(`^${source}$`);
  return (username) => {
    const match = regex.exec(username);
    if (!match) return null;
    const parsed: TParsedUser = { user: '', country: '', state: '', city: '', session: '', minutes: '' };
    names.forEach((name, i) => {
      if (match[i + 1] !== undefined) parsed[name] = match[i + 1];
    });
    return parsed;
  };
}

function isLoopback(host: string): boolean {
  return (
    host === 'localhost' || /^(0:){7}1$/.test(host) || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Starts a fake pool on 127.0.0.1 (a free port). */
export async function startFakePool(options: TFakePoolOptions): Promise<TFakePool> {
  const compiled = compilePoolTemplate(options.template);
  if (!compiled.ok) throw new Error(`fake pool template: ${JSON.stringify(compiled.problem)}`);
  const readUsername = usernameReader(compiled.template);
  const refusal = options.areaRefusal ?? { http: 403, socks: 0x02 };
  const exits = options.exitAddresses ?? ['127.0.1.1', '127.0.1.2', '127.0.1.3'];
  const now = options.now ?? Date.now;
  const stats: TFakePoolStats = {
    connections: 0,
    tunnels: 0,
    badCredentials: 0,
    areaRefusals: 0,
    otherRefusals: 0,
    bytesUp: 0,
    bytesDown: 0,
    dropped: 0,
    socketBytes: 0,
  };
  const tunnels: TFakePoolTunnel[] = [];
  const sessions = new Map<string, { exit: number; until: number }>();
  let nextExit = 0;
  let mode: 'serve' | 'fail' | 'stall' | 'drop' = 'serve';
  const sockets = new Set<net.Socket>();

  const isServed = (u: TParsedUser) =>
    options.areas.some(
      (a) =>
        a.country === u.country &&
        (u.state === '' || !a.state || a.state === u.state) &&
        (u.city === '' || !a.city || a.city === u.city),
    );

  // The exit of a connection: a session keeps its exit for its minutes; without one, each connection takes the next.
  function exitFor(u: TParsedUser): string {
    if (!u.session) return exits[nextExit++ % exits.length];
    const t = now();
    const held = sessions.get(u.session);
    if (held && t < held.until) return exits[held.exit];
    // A session past its minutes moves to another exit (when there is another).
    let exit = nextExit++ % exits.length;
    if (held && exits.length > 1 && exit === held.exit) exit = nextExit++ % exits.length;
    const minutes = Number(u.minutes) || (options.defaultMinutes ?? 10);
    sessions.set(u.session, { exit, until: t + minutes * 60_000 });
    return exits[exit];
  }

  // Who may pass: 'ok' with the parsed username, or the refusal.
  function admit(
    username: string,
    password: string,
  ): { kind: 'ok'; user: TParsedUser } | { kind: 'auth' } | { kind: 'area' } {
    const user = readUsername(username);
    if (!user || user.user !== options.user || password !== options.password) return { kind: 'auth' };
    if (!isServed(user)) return { kind: 'area' };
    return { kind: 'ok', user };
  }

  function pipe(client: net.Socket, target: net.Socket): void {
    if (mode === 'drop') {
      // The client's first bytes reach the pool and go no further: the tunnel is cut before any answer.
      client.once('data', (d: Buffer) => {
        stats.bytesUp += d.length;
        stats.dropped += 1;
        target.destroy();
        client.destroy();
      });
      return;
    }
    client.on('data', (d: Buffer) => (stats.bytesUp += d.length));
    target.on('data', (d: Buffer) => (stats.bytesDown += d.length));
    client.pipe(target);
    target.pipe(client);
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
  }

  function record(username: string, user: TParsedUser, exitIp: string, target: string): void {
    stats.tunnels += 1;
    tunnels.push({
      username,
      country: user.country,
      state: user.state,
      city: user.city,
      session: user.session,
      exitIp,
      target,
    });
  }

  let server: net.Server;
  if (options.protocol === 'http-connect') {
    const answer = (socket: net.Socket, status: number, reason: string, body: string, extra = '') =>
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    const httpServer = http.createServer((_req, res) => res.writeHead(405).end());
    httpServer.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      // Silent; closed once the client gives up (the HTTP server's sockets stay half-open otherwise).
      if (mode === 'stall') return void socket.once('end', () => socket.destroy());
      if (mode === 'fail') {
        stats.otherRefusals += 1;
        return answer(socket, 502, 'Bad Gateway', FAKE_POOL_TEXTS.failed);
      }
      const auth = /^Basic (.+)$/i.exec(req.headers['proxy-authorization'] ?? '')?.[1];
      const decoded = auth ? Buffer.from(auth, 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':');
      const admitted =
        colon > 0 ? admit(decoded.slice(0, colon), decoded.slice(colon + 1)) : ({ kind: 'auth' } as const);
      if (admitted.kind === 'auth') {
        stats.badCredentials += 1;
        return answer(
          socket,
          407,
          'Proxy Authentication Required',
          FAKE_POOL_TEXTS.badCredentials,
          'Proxy-Authenticate: Basic realm="fake-pool"\r\n',
        );
      }
      if (admitted.kind === 'area') {
        stats.areaRefusals += 1;
        return refusal.http === 407
          ? answer(socket, 407, 'Proxy Authentication Required', FAKE_POOL_TEXTS.areaNotServed)
          : answer(socket, 403, 'Forbidden', FAKE_POOL_TEXTS.areaNotServed);
      }
      const at = (req.url ?? '').lastIndexOf(':');
      const host = (req.url ?? '').slice(0, at).replace(/^\[|\]$/g, '');
      const port = Number((req.url ?? '').slice(at + 1));
      if (!isLoopback(host) || !(port > 0)) {
        stats.otherRefusals += 1;
        return answer(socket, 403, 'Forbidden', FAKE_POOL_TEXTS.targetRefused);
      }
      const user = admitted.user;
      const exitIp = exitFor(user);
      const target = net.connect({ host, port, localAddress: exitIp }, () => {
        record(decoded.slice(0, colon), user, exitIp, `${host}:${port}`);
        socket.write(
          `HTTP/1.1 200 Connection Established\r\nX-Exit-IP: ${exitIp}\r\nX-Exit-Country: ${user.country}\r\n\r\n`,
        );
        if (head.length) target.write(head);
        pipe(socket, target);
      });
      target.on('error', () => {
        if (!socket.writableEnded) answer(socket, 502, 'Bad Gateway', 'target unreachable');
      });
    });
    server = httpServer;
  } else {
    server = net.createServer((socket) => serveSocks(socket));
  }

  // SOCKS5 (RFC 1928) with username and password (RFC 1929), CONNECT only.
  function serveSocks(socket: net.Socket): void {
    socket.on('error', () => socket.destroy());
    if (mode === 'stall') return;
    let buf = Buffer.alloc(0);
    let step: 'greeting' | 'auth' | 'request' | 'done' = 'greeting';
    let admitted: ReturnType<typeof admit> = { kind: 'auth' };
    let username = '';
    const reply = (code: number, address = '0.0.0.0') => {
      const parts = address.split('.').map(Number);
      return Buffer.from([0x05, code, 0x00, 0x01, ...parts, 0x00, 0x00]);
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (step === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return;
        const methods = buf.subarray(2, 2 + buf[1]);
        buf = buf.subarray(2 + buf[1]);
        if (!methods.includes(0x02)) return void socket.end(Buffer.from([0x05, 0xff]));
        socket.write(Buffer.from([0x05, 0x02]));
        step = 'auth';
      }
      if (step === 'auth') {
        if (buf.length < 2) return;
        const ulen = buf[1];
        if (buf.length < 3 + ulen || buf.length < 3 + ulen + buf[2 + ulen]) return;
        const plen = buf[2 + ulen];
        username = buf.toString('utf8', 2, 2 + ulen);
        const password = buf.toString('utf8', 3 + ulen, 3 + ulen + plen);
        buf = buf.subarray(3 + ulen + plen);
        if (mode === 'fail') {
          stats.otherRefusals += 1;
          socket.write(Buffer.from([0x01, 0x00]));
          step = 'request';
          admitted = { kind: 'area' };
        } else {
          admitted = admit(username, password);
          if (admitted.kind === 'auth') {
            stats.badCredentials += 1;
            step = 'done';
            return void socket.end(Buffer.from([0x01, 0x01]));
          }
          socket.write(Buffer.from([0x01, 0x00]));
          step = 'request';
        }
      }
      if (step === 'request') {
        if (buf.length < 5) return;
        const type = buf[3];
        const addressLength = type === 0x01 ? 4 : type === 0x04 ? 16 : type === 0x03 ? 1 + buf[4] : -1;
        if (addressLength < 0) return void socket.end(reply(0x08));
        if (buf.length < 4 + addressLength + 2) return;
        const host =
          type === 0x01
            ? [...buf.subarray(4, 8)].join('.')
            : type === 0x03
              ? buf.toString('utf8', 5, 5 + buf[4])
              : Array.from({ length: 8 }, (_, i) => buf.readUInt16BE(4 + i * 2).toString(16)).join(':');
        const port = buf.readUInt16BE(4 + addressLength);
        step = 'done';
        socket.removeListener('data', onData);
        if (mode === 'fail') return void socket.end(reply(0x01));
        if (admitted.kind === 'area') {
          stats.areaRefusals += 1;
          return void socket.end(reply(refusal.socks));
        }
        if (admitted.kind !== 'ok') return void socket.end(reply(0x01));
        const user = admitted.user;
        if (buf[1] !== 0x01 || !isLoopback(host)) {
          stats.otherRefusals += 1;
          return void socket.end(reply(0x02));
        }
        const rest = buf.subarray(4 + addressLength + 2);
        const exitIp = exitFor(user);
        const target = net.connect({ host, port, localAddress: exitIp }, () => {
          record(username, user, exitIp, `${host}:${port}`);
          // The bound address of the reply is the exit's: a client may read it there.
          socket.write(reply(0x00, exitIp));
          if (rest.length) target.write(rest);
          pipe(socket, target);
        });
        target.on('error', () => {
          if (!socket.writableEnded) socket.end(reply(0x05));
        });
      }
    };
    socket.on('data', onData);
  }

  server.on('connection', (socket: net.Socket) => {
    stats.connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      stats.socketBytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    tunnels,
    stats: () => ({ ...stats }),
    fail: () => void (mode = 'fail'),
    stall: () => void (mode = 'stall'),
    drop: () => void (mode = 'drop'),
    recover: () => void (mode = 'serve'),
    forgetSessions: () => sessions.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
