import { readFileSync } from 'node:fs';
import { expect, inject } from 'vitest';
import { oneTimeOperatorAccount, operatorOwnPassword, outboxReader, type TAppServer } from './app-process';

export {
  freePort,
  oneTimeOperatorAccount,
  startAppServer,
  type TAppServer,
  type TSharedAppServer,
} from './app-process';

/**
 * The server the global setup started for every test file (global-setup.ts):
 * flows on it use users of their own. Its `stop` does nothing: the global
 * setup stops it after the last file. A file that needs settings of its own
 * starts its own server with startAppServer.
 */
export function sharedServer(): TAppServer {
  const shared = inject('sharedAppServer');
  return {
    url: shared.url,
    dataDir: shared.dataDir,
    gatewayPort: shared.gatewayPort,
    output: () => readFileSync(shared.logFile, 'utf8'),
    ...outboxReader(shared.dataDir),
    stop: async () => undefined,
  };
}

/** An e-mail address and a username no other flow or run uses. */
export function uniqueAccountName(name: string): { email: string; username: string } {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `${name}.${suffix}@example.com`, username: `${name.slice(0, 8)}${suffix}`.slice(0, 20) };
}

/** Waits for the e-mailed code to the address (the suite's poll timeout bounds it) and answers it. */
export async function waitForCode(server: TAppServer, email: string): Promise<string> {
  await expect.poll(() => server.latestCode(email)).toMatch(/^\d{6}$/);
  return server.latestCode(email)!;
}

/** Registers a user through the API (code from the outbox); resolves the e-mail, password and sign-in token. */
export async function registerUser(
  server: TAppServer,
  name: string,
): Promise<{ email: string; password: string; token: string }> {
  const { email, username } = uniqueAccountName(name);
  const password = 'e2e password 1';
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
    body: new URLSearchParams(fields).toString(),
  });
  const sent = await fetch(`${server.url}/api/user/code`, form({ email, type: 'register' }));
  if ((await sent.json()).code !== 0) throw new Error('code not sent');
  const code = await waitForCode(server, email);
  const res = await fetch(
    `${server.url}/api/user/register`,
    form({ username, email, password, confirm_password: password, code }),
  );
  const body = await res.json();
  if (body.code !== 0) throw new Error(`register failed: ${body.msg}`);
  return { email, password, token: body.data.token };
}

/**
 * The operator account of a fresh install with the password the flows gave it at the server's start in place of
 * its one-time password (startAppServer; the console requires the change at the first sign-in).
 */
export function operatorAccount(server: TAppServer): { email: string; password: string } {
  const account = oneTimeOperatorAccount(server.output());
  return { email: account.email, password: operatorOwnPassword(account.password) };
}

/** The operator's bearer token, signed in through the API (the password the flows gave it at the server's start). */
export async function operatorToken(server: TAppServer): Promise<string> {
  const res = await fetch(`${server.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(operatorAccount(server)).toString(),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 0) throw new Error(`operator sign-in failed: ${body.msg}`);
  return body.data.token;
}

/** The envelope of an API answer, as the e2e flows read it. */
export type TApiAnswer = { code: number; msg: string; data: Record<string, unknown> };

/** One call of the API as a program makes it (bearer token, English messages); resolves the envelope. */
export async function callApi(
  baseUrl: string,
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<TApiAnswer> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      lang: 'en',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return (await res.json()) as TApiAnswer;
}
