// The short run CI keeps on the machine's own Node (the product's supported floor) beside the full
// suites on Node 24: start the product as `npm start` does (built console, embedded database, sandbox
// payments), check its health, register a customer, top up, buy a static IP and send one request
// through the gateway to the API's own echo. Prints each step; exits 1 at the first that fails.
//   npm run smoke
import net from 'node:net';
import { once } from 'node:events';
import { startAppServer, type TAppServer } from './support/app-process';

type TEnvelope = { code: number; msg: string; data: Record<string, unknown> };

async function api(
  server: TAppServer,
  path: string,
  init: { token?: string; form?: Record<string, string>; json?: unknown } = {},
) {
  const headers: Record<string, string> = { lang: 'en' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${server.url}/api${path}`, { method: body ? 'POST' : 'GET', headers, body });
  const envelope = (await res.json()) as TEnvelope;
  if (envelope.code !== 0) throw new Error(`${path} answered ${res.status}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** The e-mailed code, once the server's outbox has it (looked for every 100 ms, for up to a minute). */
async function codeFor(server: TAppServer, email: string): Promise<string> {
  for (let tries = 0; tries < 600; tries += 1) {
    const code = server.latestCode(email);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code e-mailed to ${email}`);
}

/** One GET through the gateway with the proxy's credentials; resolves the status line and the body. */
async function proxiedGet(gatewayPort: number, proxy: { username: string; password: string }, target: string) {
  const socket = net.connect(gatewayPort, '127.0.0.1');
  await once(socket, 'connect');
  const credentials = Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64');
  socket.end(
    `GET ${target} HTTP/1.1\r\nHost: ${new URL(target).host}\r\nProxy-Authorization: Basic ${credentials}\r\nConnection: close\r\n\r\n`,
  );
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: text.split('\r\n')[0], body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

const started = Date.now();
const step = (text: string) =>
  console.log(`smoke (${process.version}, ${Math.round((Date.now() - started) / 1000)} s): ${text}`);
let server: TAppServer | undefined;
try {
  server = await startAppServer({ LOG_LEVEL: 'warn' });
  step(`started, ${server.url}/api/health answers`);
  const health = await api(server, '/health');
  if (health.status !== 'ok') throw new Error(`health says ${JSON.stringify(health)}`);

  const email = `smoke.${Date.now().toString(36)}@example.com`;
  const password = 'smoke password 1';
  await api(server, '/user/code', { form: { email, type: 'register' } });
  const code = await codeFor(server, email);
  const { token } = (await api(server, '/user/register', {
    form: { username: `smoke${Date.now().toString(36)}`, email, password, confirm_password: password, code },
  })) as { token: string };
  step(`registered ${email}`);

  const order = (await api(server, '/pay/charge/sandbox/20', { token, json: {} })) as { order_id: string };
  const paid = await fetch(`${server.url}/api/pay/sandbox/${order.order_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'result=success',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`the sandbox payment answered ${paid.status}`);
  step('topped up 20 yuan with the sandbox');

  const bought = (await api(server, '/token/static/ip', {
    token,
    json: { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 },
  })) as { tokens: { username: string; password: string }[] };
  step('bought a static IP');

  const echo = await proxiedGet(server.gatewayPort, bought.tokens[0], `${server.url}/api/proxy/echo`);
  if (!echo.status.includes(' 200 ')) throw new Error(`the proxied request answered "${echo.status}": ${echo.body}`);
  step(`one request through the gateway: ${echo.status}`);
  step('passed');
} catch (error) {
  console.error(`smoke FAILED: ${error instanceof Error ? error.message : String(error)}`);
  if (server) console.error(`server output (tail):\n${server.output().slice(-4000)}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
}
