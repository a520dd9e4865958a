import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort, waitForPort } from './ipc';

/**
 * The anchors: squid (HTTP forward and CONNECT), dante (SOCKS5) and tinyproxy
 * (HTTP forward and CONNECT), installed from Debian's packages when missing,
 * each with its own configuration in a temporary folder, listening on a free
 * loopback port, open to 127.0.0.1 without authentication, stopped afterwards.
 */

/** A running anchor proxy. */
export type TAnchor = { name: string; version: string; port: number; pid: number; stop(): Promise<void> };

/** Why an anchor is absent from the run. */
export type TAnchorSkip = { name: string; reason: string };

function which(binary: string): string | null {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', '/sbin', '/bin']) {
    const file = path.join(dir, binary);
    if (existsSync(file)) return file;
  }
  return null;
}

/** Installs Debian packages when their binary is missing (apt-get update first if the install fails). */
export function ensureInstalled(pkg: string, binary: string): { file: string | null; note?: string } {
  const found = which(binary);
  if (found) return { file: found };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-q', pkg], { env, encoding: 'utf8', timeout: 300_000 });
  console.log(`installing ${pkg} with apt-get ...`);
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update', '-q'], { env, encoding: 'utf8', timeout: 300_000 });
    result = install();
  }
  const file = which(binary);
  if (!file)
    return {
      file: null,
      note: `apt-get install ${pkg} failed: ${(result.stderr || result.error?.message || '').trim().split('\n').pop()}`,
    };
  return { file };
}

function tempFolder(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  // The daemons drop root for an unprivileged user that must still write their logs here.
  chmodSync(dir, 0o777);
  return dir;
}

// Runs a daemon in the foreground under bash with a raised open-file limit.
function spawnDaemon(file: string, args: string[], logFile: string): ChildProcess {
  const command = `ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec ${[file, ...args].map((a) => JSON.stringify(a)).join(' ')}`;
  const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => writeFileSync(logFile, d, { flag: 'a' }));
  return child;
}

async function startDaemon(options: {
  name: string;
  version: string;
  file: string;
  args: string[];
  port: number;
  dir: string;
}): Promise<TAnchor> {
  const logFile = path.join(options.dir, 'stderr.log');
  const child = spawnDaemon(options.file, options.args, logFile);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([waitForPort(options.port), exited.then(() => Promise.reject(new Error('exited')))]);
  } catch (err) {
    child.kill('SIGKILL');
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
    throw new Error(`${options.name} did not start (${(err as Error).message}) ${log}`, { cause: err });
  }
  return {
    name: options.name,
    version: options.version,
    port: options.port,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

function firstLine(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')[0];
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? '')
      .trim()
      .split('\n')[0];
  }
}

/** Squid in the foreground (-N: one process, no kids), CONNECT to any port, no cache, no logs. */
export async function startSquid(): Promise<TAnchor | TAnchorSkip> {
  const { file, note } = ensureInstalled('squid', 'squid');
  if (!file) return { name: 'squid', reason: note ?? 'not installed' };
  const dir = tempFolder('squid');
  const port = await findFreePort();
  const config = [
    `http_port 127.0.0.1:${port}`,
    'visible_hostname bench.local',
    // Open to everything, but listening on 127.0.0.1 only; no Safe_ports / SSL_ports rules: CONNECT to any port.
    'http_access allow all',
    'cache deny all',
    'cache_mem 0 MB',
    'access_log none',
    'cache_store_log none',
    `cache_log ${dir}/cache.log`,
    `pid_filename ${dir}/squid.pid`,
    `coredump_dir ${dir}`,
    'max_filedescriptors 65536',
    'shutdown_lifetime 0 seconds',
    'client_persistent_connections on',
    'server_persistent_connections on',
    'forwarded_for delete',
    'via off',
    'dns_v4_first on',
  ].join('\n');
  writeFileSync(path.join(dir, 'squid.conf'), `${config}\n`);
  const version = firstLine(file, ['-v']).replace('Squid Cache: Version ', 'squid ');
  try {
    return await startDaemon({
      name: 'squid',
      version,
      file,
      args: ['-N', '-f', path.join(dir, 'squid.conf')],
      port,
      dir,
    });
  } catch (err) {
    return { name: 'squid', reason: (err as Error).message };
  }
}

/** Dante (danted) in the foreground, SOCKS5 without authentication for 127.0.0.0/8. */
export async function startDante(): Promise<TAnchor | TAnchorSkip> {
  const { file, note } = ensureInstalled('dante-server', 'danted');
  if (!file) return { name: 'dante', reason: note ?? 'not installed' };
  const dir = tempFolder('dante');
  const port = await findFreePort();
  const config = [
    `logoutput: ${dir}/danted.log`,
    `internal: 127.0.0.1 port = ${port}`,
    'external: 127.0.0.1',
    'clientmethod: none',
    'socksmethod: none',
    'user.privileged: root',
    'user.unprivileged: nobody',
    'timeout.io: 0',
    'timeout.negotiate: 30',
    'client pass {',
    '  from: 127.0.0.0/8 to: 0.0.0.0/0',
    '  log: error',
    '}',
    'socks pass {',
    '  from: 127.0.0.0/8 to: 0.0.0.0/0',
    '  command: connect',
    '  log: error',
    '}',
  ].join('\n');
  writeFileSync(path.join(dir, 'danted.conf'), `${config}\n`);
  const version = firstLine(file, ['-v']).replace(/^Dante v([\d.]+).*/, 'dante $1');
  try {
    return await startDaemon({
      name: 'dante',
      version,
      file,
      args: ['-f', path.join(dir, 'danted.conf'), '-p', path.join(dir, 'danted.pid')],
      port,
      dir,
    });
  } catch (err) {
    return { name: 'dante', reason: (err as Error).message };
  }
}

/** Tinyproxy in the foreground (-d), any CONNECT port, 127.0.0.1 allowed, no authentication. */
export async function startTinyproxy(): Promise<TAnchor | TAnchorSkip> {
  const { file, note } = ensureInstalled('tinyproxy', 'tinyproxy');
  if (!file) return { name: 'tinyproxy', reason: note ?? 'not installed' };
  const dir = tempFolder('tinyproxy');
  const port = await findFreePort();
  const config = [
    'User nobody',
    'Group nogroup',
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 600',
    `LogFile "${dir}/tinyproxy.log"`,
    'LogLevel Critical',
    `PidFile "${dir}/tinyproxy.pid"`,
    // No ConnectPort lines: CONNECT to any port.
    'MaxClients 5000',
    'Allow 127.0.0.1',
    'DisableViaHeader Yes',
  ].join('\n');
  writeFileSync(path.join(dir, 'tinyproxy.conf'), `${config}\n`);
  const version = firstLine(file, ['-v']);
  try {
    return await startDaemon({
      name: 'tinyproxy',
      version,
      file,
      args: ['-d', '-c', path.join(dir, 'tinyproxy.conf')],
      port,
      dir,
    });
  } catch (err) {
    return { name: 'tinyproxy', reason: (err as Error).message };
  }
}
