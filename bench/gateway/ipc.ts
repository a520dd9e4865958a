import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Child processes of the benchmark and what we read about them from /proc:
 * every proxy under test, the origins and the load generator run in their own
 * process so that CPU time and memory can be told apart per process.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/** A request sent to a child over IPC; the child answers with the same id. */
export type TRequest = { id: number; type: string; [key: string]: unknown };

/** A child's answer. */
export type TReply = { id: number; ok: boolean; result?: unknown; error?: string };

/** A Node child speaking our request/answer protocol. */
export type TNodeChild = {
  pid: number;
  /** What the child announced when ready (ports and the like). */
  ready: Record<string, unknown>;
  call<T = unknown>(type: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
};

/**
 * Starts a TypeScript file of this folder in its own Node process (through bash so
 * that the open-file limit can be raised first) and waits for its "ready" message.
 */
export function startNodeChild(file: string, args: string[] = [], nodeFlags: string[] = []): Promise<TNodeChild> {
  const script = path.join(HERE, file);
  const command = [
    'ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn);',
    'exec',
    JSON.stringify(process.execPath),
    ...nodeFlags,
    '--import',
    'tsx',
    JSON.stringify(script),
    ...args.map((a) => JSON.stringify(a)),
  ].join(' ');
  const child = spawn('bash', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return wrapChild(child, file);
}

function wrapChild(child: ChildProcess, label: string): Promise<TNodeChild> {
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      for (const w of waiting.values()) w.reject(new Error(`${label} exited (${code})`));
      waiting.clear();
      reject(new Error(`${label} exited before it was ready (${code})`));
    });
    child.on('message', (message: { type?: string } & Partial<TReply>) => {
      if (message.type === 'ready') {
        resolve({
          pid: child.pid!,
          ready: message as Record<string, unknown>,
          call<T>(type: string, callArgs: Record<string, unknown> = {}) {
            const id = next++;
            return new Promise<T>((res, rej) => {
              waiting.set(id, { resolve: res as (v: unknown) => void, reject: rej });
              child.send({ ...callArgs, id, type });
            });
          },
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            await exited;
            clearTimeout(timer);
          },
        });
        return;
      }
      const w = message.id !== undefined ? waiting.get(message.id) : undefined;
      if (!w) return;
      waiting.delete(message.id!);
      if (message.ok) w.resolve(message.result);
      else w.reject(new Error(`${label}: ${message.error}`));
    });
  });
}

/**
 * The child side: announces readiness and serves requests with `handlers`.
 * Each handler answers a value or throws; the answer carries the request id.
 */
export function serveParent(
  ready: Record<string, unknown>,
  handlers: Record<string, (request: TRequest) => unknown>,
): void {
  process.on('message', (request: TRequest) => {
    const handler = handlers[request.type];
    if (!handler) {
      process.send!({ id: request.id, ok: false, error: `unknown request ${request.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(request))
      .then(
        (result) => process.send!({ id: request.id, ok: true, result }),
        (error: unknown) =>
          process.send!({ id: request.id, ok: false, error: error instanceof Error ? error.stack : String(error) }),
      );
  });
  process.send!({ ...ready, type: 'ready' });
}

// --- /proc readings ---------------------------------------------------------

const TICKS_PER_SECOND = 100;

function readStat(pid: number): { ppid: number; ticks: number; childTicks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17, ppid field 4.
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      childTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

/** The process and all its living descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(name));
    children.set(stat.ppid, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * CPU seconds (user + system) used so far by a process tree: living processes'
 * own time plus the time of children that have exited and been waited for.
 */
export function readCpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const stat = readStat(pid);
    if (stat) ticks += stat.ticks + stat.childTicks;
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * Anonymous memory of a process tree in KB: the part of RSS that connections
 * grow (heap, buffers, stacks), as proportional set size summed over the tree so
 * that forking servers (dante) do not count copy-on-write pages twice. File-backed
 * pages (the binary, libraries) are left out: their PSS moves whenever another
 * process maps the same files, which would drown a per-tunnel figure.
 */
export function readMemoryKb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = /^Pss_Anon:\s+(\d+) kB/m.exec(text);
      if (pss) {
        kb += Number(pss[1]);
        continue;
      }
    } catch {
      // Fall back to RssAnon below.
    }
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      kb += Number(/^RssAnon:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return kb;
}

/** Waits until a TCP port accepts connections. */
export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const net = await import('node:net');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (isOpen) return;
    if (Date.now() > end) throw new Error(`port ${port} did not open in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A free loopback TCP port (for programs that need one in their config). */
export async function findFreePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
