// The app server as a child process: started with a fresh data folder, its
// output kept, its outbox read. No vitest runtime here: the global setup
// (main process) uses this file too.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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

/** The console and API started as `npm start` does (built console, the launcher's bundle, embedded database), on free ports. */
export type TAppServer = {
  url: string;
  dataDir: string;
  gatewayPort: number;
  /** Everything the server printed. */
  output(): string;
  /** Every e-mail to the address in DATA_DIR/outbox (RFC 822 text), oldest first. */
  mails(to: string): string[];
  /** Text of the newest e-mail to the address in DATA_DIR/outbox. */
  latestMail(to: string): string | undefined;
  /** The 6-digit code in the newest e-mail to the address. */
  latestCode(to: string): string | undefined;
  stop(): Promise<void>;
};

/** What the global setup hands the test files about the server they share (see global-setup.ts). */
export type TSharedAppServer = { url: string; dataDir: string; gatewayPort: number; logFile: string };

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** The app server every flow shares, started once by the global setup. */
    sharedAppServer: TSharedAppServer;
  }
}

/** The e-mails of the server's outbox (DATA_DIR/outbox, one .eml file each), read as the tests need them. */
export function outboxReader(dataDir: string): Pick<TAppServer, 'mails' | 'latestMail' | 'latestCode'> {
  const outbox = path.join(dataDir, 'outbox');
  const mails = (to: string) => {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml') && f.includes(to.replace(/[^a-zA-Z0-9@._-]/g, '_')));
    } catch {
      return [];
    }
    // Named <time>-<address>-<random>.eml: by name is oldest first.
    return files.sort().map((file) => readFileSync(path.join(outbox, file), 'utf8'));
  };
  const latestMail = (to: string) => mails(to).at(-1);
  return {
    mails,
    latestMail,
    latestCode: (to) =>
      /\b(\d{6})\b/.exec(
        latestMail(to)
          ?.split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n') ?? '',
      )?.[1],
  };
}

async function isHealthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false; // not listening yet
  }
}

/**
 * The launcher's bundle (dist/launcher), built again when a source file is newer (`npm run build` builds it; this
 * only saves a run on changed sources from testing the build before the change).
 */
function buildLauncherIfStale(): void {
  execFileSync(process.execPath, ['apps/launcher/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * Starts the server process as production does (`node dist/launcher/main.js server`, the bundle
 * `npm run build` makes) with a fresh data folder; resolves once
 * /api/health answers, rejects if the process exits first. `logFile` also
 * receives everything it prints (for test files that share it).
 */
export async function startAppServer(
  env: Record<string, string> = {},
  options: { logFile?: string; keepOneTimePassword?: boolean } = {},
): Promise<TAppServer> {
  // A free port may be taken by another process before the server listens on it: start again on new ports.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startAppServerOnce(env, options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startAppServerOnce(
  env: Record<string, string>,
  options: { logFile?: string; keepOneTimePassword?: boolean },
): Promise<TAppServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-e2e-'));
  const port = await freePort();
  const gatewayPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const record = (chunk: Buffer) => {
    output += chunk;
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  buildLauncherIfStale();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/launcher/main.js', 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: String(gatewayPort),
      // Suites run apps side by side: each its own metrics port.
      METRICS_LISTEN: '127.0.0.1:0',
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
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Wait for the server to answer or to die, however long a busy machine takes to start it.
  while (!(await isHealthy(url))) {
    if (hasExited()) throw new Error(`server exited before answering:\n${output}`);
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 250))]);
  }
  // The operator's first sign-in must choose a password of its own; flows sign in with it (operatorAccount), except a
  // flow of that first sign-in itself.
  if (!options.keepOneTimePassword) await settleOperatorPassword(url, output);
  return {
    url,
    dataDir,
    gatewayPort,
    output: () => output,
    ...outboxReader(dataDir),
    stop: () =>
      new Promise<void>((resolve) => {
        if (hasExited()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** The operator account a fresh install prints once in `output` (e-mail and one-time password). */
export function oneTimeOperatorAccount(output: string): { email: string; password: string } {
  const match = /operator account created[^\n]*?e-mail ([^\s,]+), password (\w+), invite code \w+/.exec(output);
  if (!match) throw new Error(`no operator account in the server output:\n${output}`);
  return { email: match[1], password: match[2] };
}

/** The password the flows give the operator in place of its one-time password (derived, so every file knows it). */
export function operatorOwnPassword(oneTime: string): string {
  return `${oneTime}-own`;
}

/** Makes the operator's first sign-in through the API and changes its one-time password to operatorOwnPassword. */
async function settleOperatorPassword(url: string, output: string): Promise<void> {
  const account = oneTimeOperatorAccount(output);
  const login = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(account).toString(),
  }).then((res) => res.json() as Promise<{ code: number; msg: string; data: { token: string } }>);
  if (login.code !== 0) throw new Error(`operator sign-in failed: ${login.msg}`);
  const password = operatorOwnPassword(account.password);
  const changed = await fetch(`${url}/api/user/change_password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${login.data.token}` },
    body: JSON.stringify({ current_password: account.password, password, confirm_password: password }),
  }).then((res) => res.json() as Promise<{ code: number; msg: string }>);
  if (changed.code !== 0) throw new Error(`operator password change failed: ${changed.msg}`);
}
