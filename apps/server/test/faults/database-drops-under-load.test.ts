import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TDbHandle } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import {
  API_APPLICATION_NAME,
  callApiProcess,
  selectRows,
  startApiProcess,
  TEST_JWT_SECRET,
  type TApiProcess,
} from '../fault-harness';
import { createUser, type TTestUser } from '../../src/features/proxies/proxies-test-kit';

const ROUNDS = 6;
const CLIENTS = 6;

// The API child under a steady load of requests while every database
// connection it has is terminated, again and again (a PostgreSQL restart, as
// the API sees it; the shared server itself is left alone). It must not
// crash; each answer is a success or 503 DATABASE_UNAVAILABLE in the envelope,
// never another 5xx nor a dropped connection; and it serves again by itself.
describeOnPostgres(
  'the API while its database connections drop under load (needs PostgreSQL: the API runs as a second process)',
  () => {
    const mailer = createMemoryMailer();
    let handle: TDbHandle & { url?: string };
    let t: TTestApp;
    let api: TApiProcess;
    let alice: TTestUser;
    const rows = <T>(query: SQL) => selectRows<T>(handle.db, query);

    beforeAll(async () => {
      handle = await createTestDatabase({ poolSize: 4 });
      api = await startApiProcess({ databaseUrl: handle.url! });
      t = await createTestApp({ database: handle, mailer, config: { JWT_SECRET: TEST_JWT_SECRET } });
      alice = await createUser(t.app, mailer, 'alice');
    });
    afterAll(async () => {
      await api?.kill();
      await t?.close();
      await handle?.close();
    });

    const apiConnections = async () =>
      (
        await rows<{ pid: number }>(
          sql`SELECT pid FROM pg_stat_activity WHERE application_name = ${API_APPLICATION_NAME} AND datname = current_database()`,
        )
      ).length;

    it('answers successes or 503 DATABASE_UNAVAILABLE, never crashes, and serves again by itself', async () => {
      const answers: { status: number; code: number; error?: string }[] = [];
      const failures: string[] = [];
      let isLoading = true;
      // Clients that each send one request after another, every one of which reads the database (the session too).
      const paths = ['/user/info', '/invite/info', '/token/prices'];
      const client = async (n: number) => {
        for (let i = n; isLoading; i += 1) {
          try {
            const { status, json } = await callApiProcess(api, 'GET', paths[i % paths.length], { token: alice.token });
            answers.push({ status, code: json.code, error: json.data?.error });
          } catch (error) {
            failures.push(String(error));
          }
        }
      };
      const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

      let terminated = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        // Each round waits until the API has connections again (it reconnected by itself), then cuts them all.
        await expect.poll(apiConnections, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
        const cut = await rows<{ ok: boolean }>(
          sql`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ${API_APPLICATION_NAME} AND datname = current_database()`,
        );
        terminated += cut.length;
        const seen = answers.length;
        // Some requests go through the cut before the next round.
        await expect.poll(() => answers.length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(seen + CLIENTS);
      }
      isLoading = false;
      await load;
      expect(terminated).toBeGreaterThanOrEqual(ROUNDS);

      expect(failures, api.output().slice(-4000)).toEqual([]);
      const unexpected = answers.filter(
        (a) =>
          !(a.status === 200 && a.code === 0) &&
          !(a.status === 503 && a.code === 503 && a.error === 'DATABASE_UNAVAILABLE'),
      );
      expect(unexpected, api.output().slice(-4000)).toEqual([]);
      expect(answers.filter((a) => a.status === 503).length, 'the cuts reached requests in flight').toBeGreaterThan(0);

      // Serving again by itself: the next request succeeds (at most a request or two still meets a dropped connection).
      await expect
        .poll(async () => (await callApiProcess(api, 'GET', '/user/info', { token: alice.token })).json.code, {
          timeout: 10_000,
          interval: 50,
        })
        .toBe(0);
      for (let i = 0; i < 5; i += 1)
        expect((await callApiProcess(api, 'GET', '/user/info', { token: alice.token })).json.code).toBe(0);
      expect(api.output()).not.toMatch(/the API process ended/);
      expect(await findLedgerViolations(handle.db)).toEqual([]);
    });
  },
);
