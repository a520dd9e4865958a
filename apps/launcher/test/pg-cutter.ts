import net from 'node:net';

/**
 * A TCP proxy between a process and PostgreSQL that the test controls: it
 * passes everything through until armed, then cuts the first connection that
 * sends COMMIT after `marker` (e.g. the statement a flush starts with) right
 * after that COMMIT has gone to the server: the server commits, the client
 * never hears so (the connection drops as at a failover).
 */
export async function startPgCutter(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let armed: { marker: RegExp; cut(): void } | null = null;

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    // What this connection sent since its last COMMIT (only its tail is kept).
    let sent = '';
    let isCut = false;
    client.on('data', (chunk: Buffer) => {
      if (isCut) return;
      upstream.write(chunk);
      if (!armed) return;
      const text = chunk.toString('latin1');
      sent = (sent + text).slice(-4096);
      if (!/\bcommit\b/i.test(text)) return;
      const isMarked = armed.marker.test(sent);
      sent = '';
      if (!isMarked) return;
      const { cut } = armed;
      armed = null;
      isCut = true;
      // The COMMIT is on its way to the server; the client loses the connection before any answer.
      client.destroy();
      upstream.once('data', () => upstream.destroy());
      cut();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!isCut) client.write(chunk);
    });
    const close = () => {
      client.destroy();
      if (!isCut) upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close);
    client.on('close', close);
    upstream.on('error', close);
    upstream.on('close', () => {
      upstream.destroy();
      if (!isCut) client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);

  return {
    /** The database URL through the proxy. */
    url: url.toString(),
    /** Cuts the next connection that commits a transaction whose statements match `marker`; resolves once it has. */
    cutAtCommitAfter(marker: RegExp): Promise<void> {
      return new Promise<void>((resolve) => (armed = { marker, cut: resolve }));
    },
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
