import net from 'node:net';

/** Options of a gateway listener. */
export type TGatewayOptions = {
  host: string;
  port: number;
};

/** A running gateway. */
export type TGateway = { port: number; close(): Promise<void> };

/**
 * Starts the proxy gateway's listener. Until the proxy products and gateway
 * features land it refuses every request with a clear reason.
 */
export async function startGateway(options: TGatewayOptions): Promise<TGateway> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (chunk) => {
      if (chunk[0] === 0x05) {
        // SOCKS5 greeting: answer "no acceptable methods".
        socket.end(Buffer.from([0x05, 0xff]));
        return;
      }
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nX-Proxy-Reason: gateway-not-ready\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
