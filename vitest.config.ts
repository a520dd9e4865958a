import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// expect.poll waits on a condition; its timeout only bounds a failure. Vitest's default (1 s) made a
// condition that a busy machine meets later (a job's next pass, a restarted process) fail as if it never would.
const POLL = { poll: { timeout: 30_000 } };

// One runner for every workspace; `npm test` runs them all on PGlite
// (or on PostgreSQL for the server-side projects when DATABASE_URL is set).
// Tests wait on conditions; the timeouts only stop a hung test, with room for a busy 2-core machine.
export default defineConfig({
  test: {
    // Two workers on a 2-core machine (Vitest 3's default, one fewer than the cores, was one there: two took the
    // whole PGlite run from 27 to 19 minutes, with every test passing), and one core left free on larger machines
    // for the databases and servers the tests start (Vitest 4's default is every core).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      // Repository tooling: the lint rules of the layout, and CI's summary (on Vitest runs of its own).
      { test: { name: 'scripts', root: 'scripts', environment: 'node', testTimeout: 180_000, hookTimeout: 300_000 } },
      {
        test: {
          name: 'db',
          root: 'packages/db',
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          expect: POLL,
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          // Files of a worker share its module cache: importing the app (Fastify, drizzle, zod, every
          // feature) once per worker instead of once per file saved two minutes of a run. Each file still
          // builds its own app on its own database; nothing a test reads lives in module state.
          isolate: false,
          globalSetup: ['../../packages/db/src/vitest-global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          expect: POLL,
        },
      },
      {
        test: {
          name: 'gateway',
          root: 'apps/gateway',
          environment: 'node',
          globalSetup: ['../../packages/db/src/vitest-global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          expect: POLL,
        },
      },
      {
        test: {
          name: 'launcher',
          root: 'apps/launcher',
          environment: 'node',
          globalSetup: ['../../packages/db/src/vitest-global-setup.ts', 'test/bundle-global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          expect: POLL,
        },
      },
      // The browser plugin's logic (settings, grants, origins).
      { test: { name: 'browser-plugin', root: 'apps/browser-plugin', environment: 'node' } },
      'apps/web/vitest.config.ts',
    ],
  },
});
