import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@proxy/contract';
import { users } from '@proxy/db';
import { createTestApp } from '../../test/helpers';
import type { TDeps } from '../lib/deps';
import { postForm } from './auth/auth-test-kit';
import { runStartupTasks } from './startup';

describe('start-up tasks', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ config: { OPERATOR_EMAIL: 'ops@example.com' } });
  });
  afterAll(async () => {
    await t.close();
  });

  // Keeps what the tasks print, so the test can read the one-time password.
  function withLogCapture(): { deps: TDeps; warnings: string[] } {
    const warnings: string[] = [];
    const log = Object.create(t.deps.log) as TDeps['log'];
    log.warn = ((...args: unknown[]) => {
      warnings.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    }) as TDeps['log']['warn'];
    return { deps: { ...t.deps, log }, warnings };
  }

  it('creates the operator once on a fresh install and prints its e-mail, one-time password and invite code once', async () => {
    const first = withLogCapture();
    await runStartupTasks(first.deps);
    const admins = await t.db.db.select().from(users).where(eq(users.isAdmin, true));
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ email: 'ops@example.com', username: 'admin', status: 'active' });
    expect(first.warnings).toHaveLength(1);
    const line = first.warnings[0];
    expect(line).toContain('ops@example.com');
    expect(line).toContain(admins[0].inviteCode);
    const password = /password ([A-Za-z0-9]{16})\b/.exec(line)?.[1];
    expect(password).toBeDefined();
    expect(admins[0].passwordHash).not.toContain(password!);

    const signIn = await postForm(t.app, '/user/login', { email: 'ops@example.com', password: password! });
    expect(signIn.json().code).toBe(0);
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${signIn.json().data.token}` },
    });
    // The one-time password was printed in a log: nothing but the change is allowed until the operator chooses one,
    // and an operator account gets no trial credit.
    expect(info.json().data).toMatchObject({
      is_admin: true,
      name: 'admin',
      password_change_required: true,
      balance: 0,
      trial_credit: 0,
    });
    const bearer = { authorization: `Bearer ${signIn.json().data.token}` };
    for (const [method, url] of [
      ['GET', '/api/admin/users/list'],
      ['GET', '/api/token/list/variable/traffic'],
      ['GET', '/api/user/sessions'],
    ] as const) {
      const refused = await t.app.inject({ method, url, headers: { ...bearer, lang: 'zh' } });
      expect({ url, status: refused.statusCode, body: refused.json() }).toMatchObject({
        status: 403,
        body: { code: ERRORS.PASSWORD_CHANGE_REQUIRED.code, msg: ERRORS.PASSWORD_CHANGE_REQUIRED.zh },
      });
    }
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/user/change_password',
      headers: bearer,
      payload: { current_password: password!, password: 'Operator-own-pass1', confirm_password: 'Operator-own-pass1' },
    });
    expect(changed.json().code, changed.body).toBe(0);
    const after = { authorization: `Bearer ${changed.json().data.token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/users/list', headers: after })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info', headers: after })).json().data).toMatchObject({
      password_change_required: false,
      balance: 0,
      trial_credit: 0,
    });

    const second = withLogCapture();
    await runStartupTasks(second.deps);
    await runStartupTasks(second.deps);
    expect(second.warnings).toEqual([]);
    expect(await t.db.db.select().from(users).where(eq(users.isAdmin, true))).toHaveLength(1);
  });
});
