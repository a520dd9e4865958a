import net from 'node:net';
import { startLauncher, type TLaunched } from './launched-process';

/** A standalone gateway child (`npm run start:gateway`); stop() ends it with SIGTERM, kill() with SIGKILL. */
export type TGatewayProcess = TLaunched;

/** Starts `apps/launcher/src/main.ts gateway` with `env`; resolves once its output holds `readyText`. */
export function startGatewayProcess(
  env: Record<string, string | undefined>,
  readyText: string,
): Promise<TGatewayProcess> {
  return startLauncher(
    'gateway',
    {
      ...process.env,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      // Gateways run side by side in the tests: each its own metrics port (its output names it).
      GATEWAY_METRICS_LISTEN: '127.0.0.1:0',
      ...env,
    },
    readyText,
  );
}

/** Opens a CONNECT tunnel through the gateway on `port` as `credentials` (user:password); resolves the status, and the socket. */
export function openTunnel(
  port: number,
  target: string,
  credentials: string,
): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('error', reject);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.indexOf('\r\n\r\n') === -1) return;
      socket.removeAllListeners('data');
      resolve({ status: Number(got.slice(9, 12)), socket });
    });
    socket.write(
      `CONNECT ${target} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
    );
  });
}
