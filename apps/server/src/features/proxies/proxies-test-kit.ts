import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TDeps } from '../../lib/deps';
import type { TMail } from '../../lib/mailer';
import { callApi, postForm, registerUser } from '../auth/auth-test-kit';
import { seedDirectNodes } from '../inventory/inventory.service';
import { createLedgerService } from '../ledger/ledger.service';
import { seedPriceCatalogue } from '../pricing/pricing.service';
import { updateIsAdmin } from '../users/users.repository';

/** Test support for the proxy suites: users with money, purchases with headers, balances. */

/** A signed-in user of a test (token replaced by signIn after the fake clock jumps past its expiry). */
export type TTestUser = { token: string; userId: number; email: string };

/** Seeds what start-up seeds: the price catalogue and the direct nodes. */
export async function seedProxyStartup(deps: TDeps): Promise<void> {
  await seedPriceCatalogue(deps);
  await seedDirectNodes(deps);
}

/** Registers a user (15 yuan trial credit) and answers its token and id. */
export async function createUser(
  app: FastifyInstance,
  mailer: { last(to?: string): TMail | undefined },
  name: string,
): Promise<TTestUser> {
  const email = `${name}@example.com`;
  const token = await registerUser(app, mailer, { email, username: name });
  const info = await callApi(app, 'GET', '/user/info', { token });
  return { token, userId: info.json().data.user_id as number, email };
}

/** Registers a user and makes it an operator (users.is_admin). */
export async function createAdmin(
  app: FastifyInstance,
  deps: TDeps,
  mailer: { last(to?: string): TMail | undefined },
  name: string,
): Promise<TTestUser> {
  const user = await createUser(app, mailer, name);
  await updateIsAdmin(deps.db, user.userId, true);
  return user;
}

/** Signs the users in again (sessions expire after 2.5 days of fake time). */
export async function signIn(app: FastifyInstance, ...users: TTestUser[]): Promise<void> {
  for (const user of users) {
    const res = await postForm(app, '/user/login', { email: user.email, password: 'correct horse' });
    if (res.json().code !== 0) throw new Error(`login: ${res.body}`);
    user.token = res.json().data.token as string;
  }
}

/** Adds fen to a user's balance through the ledger. */
export async function creditFen(deps: TDeps, userId: number, amountFen: number): Promise<void> {
  await createLedgerService(deps).credit({ userId, amountFen, reason: 'adjustment' });
}

/** The user's available balance in fen. */
export async function balanceFen(deps: TDeps, userId: number): Promise<number> {
  return (await createLedgerService(deps).getBalance(userId)).availableFen;
}

/** Calls the API with a bearer token, a JSON body and extra headers. */
export function request(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { token?: string; body?: object; headers?: Record<string, string>; lang?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/api${url}`,
    ...(options.body ? { payload: options.body } : {}),
    headers: {
      ...(options.lang ? { lang: options.lang } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
}

/** Buys on one of the four purchase paths; throws unless it succeeded. */
export async function buyOk(
  app: FastifyInstance,
  token: string,
  path: string,
  body: object,
): Promise<{ tokens: { token_id: number; username: string; password: string }[]; cost: number; balance: number }> {
  const res = await request(app, 'POST', path, { token, body });
  if (res.json().code !== 0) throw new Error(`buy ${path}: ${res.body}`);
  return res.json().data;
}
