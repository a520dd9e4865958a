import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The console and API started as `npm start` does (built console, embedded database), on free ports. */
export type TAppServer = {
  url: string;
  dataDir: string;
  gatewayPort: number;
  /** Everything the server printed. */
  output(): string;
  /** Text of the newest e-mail to the address in DATA_DIR/outbox. */
  latestMail(to: string): string | undefined;
  /** The 6-digit code in the newest e-mail to the address. */
  latestCode(to: string): string | undefined;
  stop(): Promise<void>;
};

/** Starts the server process with a fresh data folder; resolves once /api/health answers. */
export async function startAppServer(env: Record<string, string> = {}): Promise<TAppServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-e2e-'));
  const port = await freePort();
  const gatewayPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: String(gatewayPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ARGON2_MEMORY_KIB: '4096',
      ARGON2_TIME_COST: '1',
      RATE_LIMIT_AUTH_MAX: '1000',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const outbox = path.join(dataDir, 'outbox');
  const latestMail = (to: string) => {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml') && f.includes(to.replace(/[^a-zA-Z0-9@._-]/g, '_')));
    } catch {
      return undefined;
    }
    files.sort();
    const last = files.at(-1);
    return last ? readFileSync(path.join(outbox, last), 'utf8') : undefined;
  };
  return {
    url,
    dataDir,
    gatewayPort,
    output: () => output,
    latestMail,
    latestCode: (to) =>
      /\b(\d{6})\b/.exec(
        latestMail(to)
          ?.split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n') ?? '',
      )?.[1],
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Registers a user through the API (code from the outbox); resolves the e-mail and password. */
export async function registerUser(server: TAppServer, name: string): Promise<{ email: string; password: string; token: string }> {
  const email = `${name}.${Date.now()}@example.com`;
  const password = 'e2e password 1';
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
    body: new URLSearchParams(fields).toString(),
  });
  const sent = await fetch(`${server.url}/api/user/code`, form({ email, type: 'register' }));
  if ((await sent.json()).code !== 0) throw new Error('code not sent');
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    code = server.latestCode(email);
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(
    `${server.url}/api/user/register`,
    form({ username: `${name}${Date.now() % 100000}`, email, password, confirm_password: password, code: code ?? '' }),
  );
  const body = await res.json();
  if (body.code !== 0) throw new Error(`register failed: ${body.msg}`);
  return { email, password, token: body.data.token };
}
