import net from 'node:net';
import { serveParent } from './ipc';

/**
 * The reference: a bare Node socket relay. One listener per fixed target
 * (argv: name=port ...), each connection piped to its target, nothing else:
 * no protocol, no authentication, no metering. What Node itself costs.
 */

function startRelay(targetPort: number): Promise<number> {
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', 4096, () => resolve((server.address() as net.AddressInfo).port)),
  );
}

const ports: Record<string, number> = {};
for (const arg of process.argv.slice(2)) {
  const [name, port] = arg.split('=');
  ports[name] = await startRelay(Number(port));
}
serveParent(
  { ports },
  {
    /** Collects garbage, then answers the process's memory figures. */
    gc: () => {
      globalThis.gc?.();
      return process.memoryUsage();
    },
  },
);
process.on('SIGTERM', () => process.exit(0));
