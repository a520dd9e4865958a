import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TDeps } from '../../lib/deps';
import type { TMail } from '../../lib/mailer';
import type { TUserRow } from '../accounts/accounts.repository';
import { insertSession } from './sessions.repository';

/** Test support for the account suites: form posts, codes from the memory mailer, ready-made users. */

/** Posts a form (the auth calls are form posts). */
export function postForm(
  app: FastifyInstance,
  url: string,
  data: Record<string, string>,
  options: { lang?: string; token?: string; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/api${url}`,
    payload: new URLSearchParams(data).toString(),
    remoteAddress: options.ip,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.lang ? { lang: options.lang } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

/** Calls the API with a bearer token (JSON body when given). */
export function callApi(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { token?: string; lang?: string; body?: object } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/api${url}`,
    ...(options.body ? { payload: options.body } : {}),
    headers: {
      ...(options.lang ? { lang: options.lang } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

/** The 6-digit code of the last e-mail sent to an address. */
export function codeSentTo(mailer: { last(to?: string): TMail | undefined }, to: string): string {
  const mail = mailer.last(to);
  if (!mail) throw new Error(`no e-mail sent to ${to}`);
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in the e-mail to ${to}`);
  return match[1];
}

/** Requests a code and registers; answers the session token. */
export async function registerUser(
  app: FastifyInstance,
  mailer: { last(to?: string): TMail | undefined },
  user: { email: string; username: string; password?: string; invite_code?: string },
): Promise<string> {
  const sent = await postForm(app, '/user/code', { email: user.email, type: 'register' });
  if (sent.json().code !== 0) throw new Error(`code: ${sent.body}`);
  const password = user.password ?? 'correct horse';
  const res = await postForm(app, '/user/register', {
    username: user.username,
    email: user.email,
    password,
    confirm_password: password,
    code: codeSentTo(mailer, user.email),
    ...(user.invite_code ? { invite_code: user.invite_code } : {}),
  });
  if (res.json().code !== 0) throw new Error(`register: ${res.body}`);
  return res.json().data.token as string;
}

/**
 * A token for an account without signing in (no trial credit, no
 * last_login_at): a session row of its own, as the accounts made by
 * createAccount in tests have never signed in.
 */
export async function issueTestToken(
  deps: TDeps,
  user: Pick<TUserRow, 'id' | 'tokenVersion'>,
  ip = '127.0.0.1',
): Promise<string> {
  const session = await insertSession(deps.db, {
    userId: user.id,
    method: 'password',
    userAgent: 'test',
    ip,
    at: deps.clock.now(),
  });
  return deps.jwt.sign({ userId: user.id, tokenVersion: user.tokenVersion, sessionId: session.id });
}
