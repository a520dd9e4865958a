import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The checkout's root (the launcher's run modes are started from there). */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A process a test started: its output so far, signals, and its exit. */
export type TLaunched = {
  pid: number;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** The exit code (null while running, or when a signal ended it). */
  exitCode(): number | null;
  /** Resolves with the exit code once the process has exited and its output has ended. */
  exited: Promise<number | null>;
  /** Resolves once the output (from the start) contains `text`; rejects if the process exits first. */
  waitFor(text: string | RegExp): Promise<void>;
  /** Sends `signal` without waiting. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then waits for the exit (nothing when it has exited already). */
  stop(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
};

/** Starts `command args` in the checkout with `env`; resolves once its output holds `readyText`. */
export async function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyText: string | RegExp,
): Promise<TLaunched> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const watchers = new Set<() => void>();
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watch of watchers) watch();
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  // 'close' comes after the exit and the end of its output (and of any child's sharing it).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const isGone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasText = (text: string | RegExp) => (typeof text === 'string' ? output.includes(text) : text.test(output));
  const waitFor = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const watch = () => {
        if (!hasText(text)) return;
        watchers.delete(watch);
        resolve();
      };
      watchers.add(watch);
      watch();
      void exited.then((code) => {
        if (!watchers.delete(watch)) return;
        reject(new Error(`process exited (${code}) before printing ${String(text)}:\n${output}`));
      });
    });
  await waitFor(readyText);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await isGone;
  };
  return {
    pid: child.pid!,
    child,
    output: () => output,
    exitCode: () => child.exitCode,
    exited,
    waitFor,
    signal: (signal) => void child.kill(signal),
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** `apps/launcher/src/main.ts <mode>` run through tsx, as the start scripts do in development. */
export function startLauncher(
  mode: 'server' | 'gateway',
  env: NodeJS.ProcessEnv,
  readyText: string | RegExp,
): Promise<TLaunched> {
  return startProcess(process.execPath, ['--import', 'tsx', 'apps/launcher/src/main.ts', mode], env, readyText);
}

/** The compiled launcher (`npm run build`), relative to the checkout. */
export const BUNDLE = 'dist/launcher/main.js';

/** `node dist/launcher/main.js <mode>`, as production runs it (the launcher's suites build it first when stale). */
export function startBundle(
  mode: 'server' | 'gateway',
  env: NodeJS.ProcessEnv,
  readyText: string | RegExp,
): Promise<TLaunched> {
  return startProcess(process.execPath, ['--enable-source-maps', BUNDLE, mode], env, readyText);
}
