import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/api-with-gateway';
import { startLauncher, type TLaunched } from '../test/launched-process';

/** Whether a new TCP connection to `port` is accepted: resolves the connect error's code, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

// `npm run start:server` on the embedded database, stopped with SIGTERM (systemd's stop) while a request is in
// flight: the slow request is a sign-in whose body the client is still sending. The API stops accepting at once,
// answers that request in full, and exits 0.
describe('the API stopped with SIGTERM', () => {
  let dataDir: string;
  let port: number;
  let api: TLaunched;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'api-drain-'));
    port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: String(await freePort()),
      // A port of its own: the default one may be taken on this machine.
      METRICS_LISTEN: '127.0.0.1:0',
      DATA_DIR: dataDir,
      ARGON2_MEMORY_KIB: '64',
      ARGON2_TIME_COST: '1',
      LOG_LEVEL: 'info',
    };
    // The embedded database in a temporary folder, whatever the suite runs on.
    delete env.DATABASE_URL;
    api = await startLauncher('server', env, 'console and API on');
  });

  afterAll(async () => {
    await api?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, and exits 0', async () => {
    // The operator account of a fresh install, as it is printed once.
    const [, email, password] = /e-mail (\S+), password (\w+)/.exec(api.output()) ?? [];
    expect(password, api.output()).toBeDefined();
    const body = `email=${encodeURIComponent(email)}&password=${password}`;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => {});
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // The head and half the body: the request is in flight.
    socket.write(
      `POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );

    api.signal('SIGTERM');
    await api.waitFor('draining: no new connections');
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
    expect(api.exitCode()).toBeNull();

    // The rest of the body: the request completes, and its answer closes the connection.
    socket.write(body.slice(10));
    await ended;
    const [head, json] = answer.split('\r\n\r\n');
    expect(head, answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(json), json).toMatchObject({ code: 0 });

    expect(await api.exited, api.output()).toBe(0);
    expect(api.output()).toContain('"msg":"stopped"');
  });
});
