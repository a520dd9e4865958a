import http from 'node:http';
import net from 'node:net';
import { buildConnectRequest, buildUserPass } from '../src/socks5';

/**
 * A customer's program in a test: one HTTP request to a URL through the
 * gateway, over HTTP forward, a CONNECT tunnel or a SOCKS5 tunnel. Exported
 * as `@proxy/gateway/testing` for suites that drive the gateway from outside.
 */

/** How the request reaches the gateway. */
export type TProxyVia = 'http' | 'connect' | 'socks5';

/** What came back: the HTTP status (the gateway's refusal or the target's answer), X-Proxy-Reason, body, and the SOCKS5 reply code. */
export type TProxyAnswer = { status: number; reason?: string; body: string; socksReply?: number };

function readAnswer(req: http.ClientRequest): Promise<TProxyAnswer> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, reason: res.headers['x-proxy-reason'] as string | undefined, body }),
      );
    });
    req.on('error', reject);
  });
}

// Reads from the socket until `size` says how long the message is (null: need more).
function readMessage(socket: net.Socket, size: (buf: Buffer) => number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const n = size(buf);
      if (n === null || buf.length < n) return;
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      socket.pause();
      if (buf.length > n) socket.unshift(buf.subarray(n));
      resolve(buf.subarray(0, n));
    };
    const onClose = () => reject(new Error(`closed after ${buf.length} bytes`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.resume();
  });
}

/** One request through the gateway at 127.0.0.1:`proxyPort`. */
export async function viaProxy(options: {
  proxyPort: number;
  username: string;
  password: string;
  url: string;
  via: TProxyVia;
  method?: string;
}): Promise<TProxyAnswer> {
  const target = new URL(options.url);
  const port = Number(target.port || 80);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const method = options.method ?? 'GET';
  const auth = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  if (options.via === 'http') {
    const req = http.request({
      host: '127.0.0.1',
      port: options.proxyPort,
      method,
      path: options.url,
      headers: { host: target.host, 'proxy-authorization': auth, connection: 'close' },
      agent: false,
    });
    req.end();
    return readAnswer(req);
  }
  const socket = net.connect(options.proxyPort, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  try {
    if (options.via === 'connect') {
      const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth}\r\n\r\n`);
      const head = (
        await readMessage(socket, (b) => {
          const end = b.indexOf('\r\n\r\n');
          return end === -1 ? null : end + 4;
        })
      ).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      if (status !== 200) return { status, reason: /x-proxy-reason: (\S+)/i.exec(head)?.[1], body: '' };
    } else {
      socket.write(Buffer.from([5, 1, 2]));
      await readMessage(socket, () => 2);
      socket.write(buildUserPass(options.username, options.password));
      const authReply = await readMessage(socket, () => 2);
      if (authReply[1] !== 0) return { status: 0, body: '', socksReply: -1 };
      socket.write(buildConnectRequest(host, port));
      const reply = await readMessage(socket, (b) =>
        b.length < 5 ? null : b[3] === 1 ? 10 : b[3] === 4 ? 22 : 7 + b[4],
      );
      if (reply[1] !== 0) return { status: 0, body: '', socksReply: reply[1] };
    }
    const inner = http.request({
      createConnection: () => socket,
      method,
      path: target.pathname + target.search,
      headers: { host: target.host, connection: 'close' },
    });
    inner.end();
    socket.resume();
    return { ...(await readAnswer(inner)), socksReply: options.via === 'socks5' ? 0 : undefined };
  } finally {
    setImmediate(() => socket.destroy());
  }
}
