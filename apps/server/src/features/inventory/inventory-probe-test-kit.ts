import http from 'node:http';
import net from 'node:net';

/**
 * Local stand-ins for the inventory probe's tests, on real sockets: upstream
 * HTTP CONNECT proxies and an IP echo. Each upstream leaves from its own
 * loopback address (127.0.0.2, 127.0.0.3, ...), so the echo can tell them
 * apart; the echo answers the public address mapped to the caller's loopback
 * address (a loopback address has no country; a mapped public one has).
 */

/** A local upstream proxy: its port, how many connections it accepted, close(). */
export type TLocalUpstream = { port: number; connections(): number; close(): Promise<void> };

/** An HTTP CONNECT proxy with Basic credentials whose outgoing connections leave from `localAddress`. */
export async function startLocalUpstream(options: {
  localAddress: string;
  username: string;
  password: string;
}): Promise<TLocalUpstream> {
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  let accepted = 0;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connection', () => (accepted += 1));
  server.on('connect', (req, socket: net.Socket, head) => {
    if (req.headers['proxy-authorization'] !== expected)
      return socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const at = (req.url ?? '').lastIndexOf(':');
    const target = net.connect(
      {
        host: (req.url ?? '').slice(0, at).replace(/^\[|\]$/g, ''),
        port: Number((req.url ?? '').slice(at + 1)),
        localAddress: options.localAddress,
      },
      () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        target.write(head);
        socket.pipe(target);
        target.pipe(socket);
      },
    );
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A dead upstream: it accepts connections (and counts them) and closes each at once. */
export async function startDeadUpstream(): Promise<TLocalUpstream> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    accepted += 1;
    socket.destroy();
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An IP echo answering the API's envelope {code: 0, data: {ip}}: the address mapped to the caller's, or the caller's own. */
export async function startLocalEcho(
  publicAddressOf: Record<string, string> = {},
): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    count += 1;
    const seen = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 0, data: { ip: publicAddressOf[seen] ?? seen } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/echo`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
