import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRouteDef } from '@proxy/contract';
import { createMemoryMailer, createTestApp } from '../../test/helpers';
import { ALL_ROUTES, callRoute } from '../../test/route-calls';
import { HOSTILE_VALUES, arbitraryOf, fieldsOf } from '../../test/zod-arbitraries';
import { postForm } from '../features/auth/auth-test-kit';
import {
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  seedProxyStartup,
  type TTestUser,
} from '../features/proxies/proxies-test-kit';

// Generated from the route table: every route gets inputs drawn from its zod
// schema and invalid variants of them. No answer may be a 5xx, and a rejected
// request changes no data. Fixed seeds: a failure names the route, the case and
// the seed, and reruns the same inputs.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const VALID_SAMPLES = 4;
const HOSTILE_PER_FIELD = 6;

// Tables a rejected request must leave as they were. Left out on purpose:
// audit_entries (a refused operator call is audited), user_sessions (last use),
// email_codes (a wrong code counts a try), oauth_states (a started sign-in).
const WATCHED_TABLES = [
  'users',
  'balances',
  'ledger_entries',
  'proxy_tokens',
  'proxy_orders',
  'ip_list_entries',
  'notifications',
  'spider_records',
  'exit_nodes',
  'pools',
  'token_usage',
  'price_catalogue',
  'oauth_accounts',
];

describe('input fuzzing over every route', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let user: TTestUser;
  let oper: TTestUser;

  async function snapshot(): Promise<string> {
    const parts = WATCHED_TABLES.map(
      (table) => `(SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM ${table} x)`,
    );
    const result = await t.db.db.execute(sql.raw(`SELECT ${parts.join(" || ',' || ")} AS digest`));
    const rows = (result as unknown as { rows: { digest: string }[] }).rows;
    return rows[0].digest;
  }

  // Fuzzed calls may sign the user out, disable accounts or change passwords: restore what later routes need.
  async function restoreAccounts() {
    await t.db.db.execute(sql`UPDATE users SET status = 'active'`);
    for (const account of [user, oper]) {
      const res = await postForm(t.app, '/user/login', { email: account.email, password: 'correct horse' });
      if (res.json().code === 0) account.token = res.json().data.token;
    }
  }

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    user = await createUser(t.app, mailer, 'fuzzy');
    oper = await createAdmin(t.app, t.deps, mailer, 'oper');
    await creditFen(t.deps, user.userId, 100_000);
    await buyOk(t.app, user.token, '/token/static/ip', { network: 'HTTP', country_id: 'us', quantity: 1, days: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  function variantsOf(
    name: string,
    def: TRouteDef,
    routeSeed: number,
  ): { label: string; input: Record<string, unknown>; encoding?: 'form' | 'json' }[] {
    const arbitrary = arbitraryOf(def.input);
    const samples = (arbitrary ? fc.sample(arbitrary, { seed: routeSeed, numRuns: VALID_SAMPLES }) : [{}]) as Record<
      string,
      unknown
    >[];
    const base = { ...(samples[0] ?? {}) };
    const cases: { label: string; input: Record<string, unknown>; encoding?: 'form' | 'json' }[] = samples.map(
      (s, i) => ({
        label: `sample ${i}`,
        input: { ...s },
      }),
    );
    const hostile = fc.sample(
      fc.shuffledSubarray(HOSTILE_VALUES, { minLength: HOSTILE_PER_FIELD, maxLength: HOSTILE_PER_FIELD }),
      {
        seed: routeSeed,
        numRuns: 1,
      },
    )[0];
    for (const field of fieldsOf(def.input)) {
      const { [field]: _dropped, ...missing } = base;
      cases.push({ label: `${field} missing`, input: missing });
      for (const value of hostile)
        cases.push({ label: `${field}=${JSON.stringify(value).slice(0, 30)}`, input: { ...base, [field]: value } });
    }
    cases.push({ label: 'extra field', input: { ...base, unexpected_field: 'x', __proto__field: { a: 1 } } });
    cases.push({ label: 'empty input', input: {} });
    if (def.body === 'form') cases.push({ label: 'JSON to a form route', input: base, encoding: 'json' });
    if (def.body === 'json') cases.push({ label: 'form to a JSON route', input: base, encoding: 'form' });
    return cases.map((c) => ({ ...c, label: `${name} [${c.label}] seed ${routeSeed}` }));
  }

  // One test per route: each route's variants get the test timeout of their own, however many routes there are.
  const totals = { calls: 0, refusedUnchanged: 0, routes: new Set<string>() };
  for (const [index, { name, def }] of ALL_ROUTES.entries()) {
    it(`answers every generated input to ${name} below 500 and changes nothing when it refuses`, async () => {
      const token = def.auth === 'none' ? undefined : def.auth === 'admin' ? oper.token : user.token;
      for (const variant of variantsOf(name, def, SEED + index)) {
        const before = await snapshot();
        const res = await callRoute(t.app, def, variant.input, { token, encoding: variant.encoding });
        totals.calls += 1;
        if (res.statusCode === 501) {
          expect(res.json().data.error, variant.label).toBe('NOT_AVAILABLE');
        } else {
          expect(res.statusCode, `${variant.label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        }
        if (res.statusCode >= 400) {
          expect(await snapshot(), `${variant.label} was refused (${res.statusCode}) but changed data`).toBe(before);
          totals.refusedUnchanged += 1;
        }
      }
      totals.routes.add(name);
      await restoreAccounts();
    });
  }

  it('tried every route, and most generated inputs were refused without a change', () => {
    expect([...totals.routes].sort()).toEqual(ALL_ROUTES.map((r) => r.name).sort());
    expect(totals.refusedUnchanged).toBeGreaterThan(totals.calls / 2);
    // CI prints this line of each database's run: the count must not shrink when the suite is made faster.
    console.log(
      `input fuzz: ${totals.calls} calls over ${totals.routes.size} routes, seed ${SEED}, ${totals.refusedUnchanged} refused with no change`,
    );
  });
});
