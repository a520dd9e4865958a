import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A standalone gateway child (`npm run start:gateway`); stop() ends it with SIGTERM, kill() with SIGKILL. */
export type TGatewayProcess = {
  pid: number;
  exitCode(): number | null;
  output(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
};

/** Starts `apps/launcher/src/main.ts gateway` with `env`; resolves once its output holds `readyText`. */
export async function startGatewayProcess(
  env: Record<string, string | undefined>,
  readyText: string,
): Promise<TGatewayProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', 'gateway'], {
    cwd: ROOT,
    env: {
      ...process.env,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      // Gateways run side by side in the tests: each its own metrics port (its output names it).
      GATEWAY_METRICS_LISTEN: '127.0.0.1:0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes(readyText)) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}):\n${output}`)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    pid: child.pid!,
    exitCode: () => child.exitCode,
    output: () => output,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
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
