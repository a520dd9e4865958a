import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// CI's summary (scripts/ci-summary.mjs) on the reports and logs of real Vitest runs of made-up test files.
const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

const HOOK_FAILS = `import { beforeAll, describe, expect, it } from 'vitest';
describe('set up by a hook', () => {
  beforeAll(() => { throw new Error('the hook broke'); });
  it('first under the hook', () => expect(1).toBe(1));
  it('second under the hook', () => expect(1).toBe(1));
});
it('passes', () => expect(1).toBe(1));
`;
const TEST_FAILS = `import { expect, it } from 'vitest';
it('adds wrongly', () => expect(1 + 1, 'the sum').toBe(3));
it('passes', () => expect(1).toBe(1));
`;
// Both in one run: the hook's error must not hide behind the failed test.
const BOTH_FAIL = HOOK_FAILS + "it('adds wrongly', () => expect(1 + 1, 'the sum').toBe(3));\n";
const PASSING = `import { expect, it } from 'vitest';
it('passes', () => expect(1).toBe(1));
`;

// Skipped through the suites' own helpers, which name the reason; and by hand, with a reason in the name.
const TESTING = path.join(ROOT, 'packages/db/src/testing.ts');
const SKIPS_WITH_REASONS = `import { describe, expect, it } from 'vitest';
import { describeOnPglite, describeOnPostgres, itOnPglite, itOnPostgres } from ${JSON.stringify(TESTING)};
it('passes', () => expect(1).toBe(1));
itOnPostgres('races two instances', () => expect(1).toBe(1));
describeOnPostgres('two servers', () => {
  it('share a lock', () => expect(1).toBe(1));
  it('share a queue', () => expect(1).toBe(1));
});
itOnPglite('reads the embedded database', () => expect(1).toBe(1));
describeOnPglite('an embedded file', () => {
  it('is copied', () => expect(1).toBe(1));
});
describe('by hand', () => {
  it.skip('calls the vendor [skipped: needs the vendor sandbox]', () => {});
});
`;
// A test skipped for no stated reason, a todo, and the old way of saying it (not a reason the summary reads).
const SKIPS_WITHOUT_REASONS = `import { expect, it } from 'vitest';
it('passes', () => expect(1).toBe(1));
it.skip('skipped for nothing said', () => {});
it.todo('written some day');
it.skipIf(true)('races two instances (needs PostgreSQL)', () => {});
`;

// A test that runs out of time: Vitest's report then says only STACK_TRACE_ERROR; the log says what happened.
const TIMES_OUT = `import { it } from 'vitest';
it('waits for ever', () => new Promise(() => {}), 200);
`;

/** Runs Vitest on one file as .ci/run does; returns the report's path (its log beside it). */
async function vitestReport(
  dir: string,
  name: string,
  source: string,
  extraEnv: Record<string, string> = {},
): Promise<string> {
  const root = path.join(dir, name);
  mkdirSync(root);
  writeFileSync(path.join(root, 'made-up.test.ts'), source);
  // The child is a run of its own, not a worker of this one, on the database its test asks for.
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'DATABASE_URL'),
    ),
    ...extraEnv,
  };
  const report = path.join(dir, `${name}.json`);
  const args = ['vitest', 'run', '--root', root, '--reporter=default', '--reporter=json', `--outputFile=${report}`];
  const output = await run('npx', args, { cwd: ROOT, env }).then(
    (r) => r.stdout + r.stderr,
    (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
  );
  writeFileSync(report.replace(/\.json$/, '.log'), output);
  return report;
}

async function summary(...reports: string[]): Promise<{ code: number; out: string }> {
  return run('node', [path.join(ROOT, 'scripts/ci-summary.mjs'), ...reports]).then(
    (r) => ({ code: 0, out: r.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
  );
}

describe('the CI summary', () => {
  let dir: string;
  let hookFails: string;
  let testFails: string;
  let bothFail: string;
  let passing: string;
  let skipsOnPglite: string;
  let skipsOnPostgres: string;
  let skipsWithout: string;
  let timesOut: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ci-summary-'));
    [hookFails, testFails, bothFail, passing, skipsOnPglite, skipsOnPostgres, skipsWithout, timesOut] =
      await Promise.all([
        vitestReport(dir, 'hook', HOOK_FAILS),
        vitestReport(dir, 'test', TEST_FAILS),
        vitestReport(dir, 'both', BOTH_FAIL),
        vitestReport(dir, 'passing', PASSING),
        vitestReport(dir, 'skips-pglite', SKIPS_WITH_REASONS),
        // The helpers only read whether DATABASE_URL is set; nothing here opens a database.
        vitestReport(dir, 'skips-postgres', SKIPS_WITH_REASONS, { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }),
        vitestReport(dir, 'skips-without', SKIPS_WITHOUT_REASONS),
        vitestReport(dir, 'times-out', TIMES_OUT),
      ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a failed test with its message before the totals', async () => {
    const { code, out } = await summary(testFails, passing);
    expect(code).toBe(1);
    const failures = out.slice(0, out.indexOf(`${testFails}: 1 passed`));
    expect(failures).toContain('=== what failed ===');
    expect(failures).toContain('adds wrongly');
    expect(failures).toMatch(/the sum: expected 2 to be 3/);
    expect(failures).not.toContain('passes');
    // The totals come last, where the kept tail of the output shows them.
    expect(out.trimEnd().split('\n').slice(-3)).toEqual([
      `${testFails}: 1 passed, 1 failed, 0 skipped`,
      `${passing}: 1 passed, 0 failed, 0 skipped`,
      '2 passed, 1 failed, 0 skipped',
    ]);
  });

  it("names a test that ran out of time with the log's words, not the report's placeholder", async () => {
    const { code, out } = await summary(timesOut);
    expect(code).toBe(1);
    expect(out).toContain('waits for ever');
    expect(out).toMatch(/Test timed out in 200ms/);
    expect(out).not.toContain('STACK_TRACE_ERROR');
  });

  it("names a file whose hook failed (its tests skipped) and prints the hook's error from the log", async () => {
    const { code, out } = await summary(hookFails);
    expect(code).toBe(1);
    const failures = out.slice(0, out.indexOf(`${hookFails}: the run reported`));
    expect(failures).toContain(`FAILED FILE ${path.join(dir, 'hook', 'made-up.test.ts')}`);
    expect(failures).toContain('the hook broke');
    expect(out.trimEnd().split('\n').slice(-4)).toEqual([
      `${hookFails}: the run reported errors outside the tests`,
      `${hookFails}: 1 passed, 0 failed, 2 skipped`,
      '1 passed, 1 failed, 2 skipped',
      'skipped 2: not run: their file or a hook failed (see what failed)',
    ]);
  });

  it('prints a failed hook beside a failed test of the same run', async () => {
    const { code, out } = await summary(bothFail);
    expect(code).toBe(1);
    expect(out).toContain('adds wrongly');
    expect(out).toContain('the hook broke');
    expect(out.trimEnd().split('\n').slice(-4)).toEqual([
      `${bothFail}: the run reported errors outside the tests`,
      `${bothFail}: 1 passed, 1 failed, 2 skipped`,
      '1 passed, 2 failed, 2 skipped',
      'skipped 2: not run: their file or a hook failed (see what failed)',
    ]);
  });

  it('prints only the totals when everything passed, and says when a suite did not run', async () => {
    expect(await summary(passing)).toEqual({
      code: 0,
      out: `${passing}: 1 passed, 0 failed, 0 skipped\n1 passed, 0 failed, 0 skipped\n`,
    });
    const missing = path.join(dir, 'never-ran.json');
    const { code, out } = await summary(passing, missing);
    expect(code).toBe(1);
    expect(out).toContain(`${missing}: no report (the suite did not run)`);
  });

  it('counts the skipped tests by the reason their names give, after the totals', async () => {
    const { code, out } = await summary(skipsOnPglite, skipsOnPostgres);
    expect(out).not.toContain('what failed');
    expect(out.trimEnd().split('\n')).toEqual([
      `${skipsOnPglite}: 3 passed, 0 failed, 4 skipped`,
      `${skipsOnPostgres}: 4 passed, 0 failed, 3 skipped`,
      '7 passed, 0 failed, 7 skipped',
      'skipped 3: needs PostgreSQL (DATABASE_URL unset)',
      'skipped 2: needs PGlite, the embedded database (DATABASE_URL set)',
      'skipped 2: needs the vendor sandbox',
    ]);
    expect(code).toBe(0);
  });

  it('fails on a skipped test or a todo whose name gives no reason, and names each', async () => {
    const { code, out } = await summary(skipsWithout, skipsOnPglite);
    expect(code).toBe(1);
    const failures = out.slice(0, out.indexOf(`${skipsWithout}: 3 skipped without a reason`));
    const file = path.join(dir, 'skips-without', 'made-up.test.ts');
    expect(failures).toContain(`--- ${skipsWithout}: skipped without a reason`);
    expect(failures).toContain(`${file}: skipped for nothing said (skipped)`);
    expect(failures).toContain(`${file}: written some day (todo)`);
    expect(failures).toContain(`${file}: races two instances (needs PostgreSQL) (skipped)`);
    expect(failures).not.toContain('races two instances [skipped');
    expect(out.trimEnd().split('\n').slice(-6)).toEqual([
      `${skipsWithout}: 3 skipped without a reason`,
      `${skipsWithout}: 1 passed, 0 failed, 3 skipped`,
      `${skipsOnPglite}: 3 passed, 0 failed, 4 skipped`,
      '4 passed, 1 failed, 7 skipped',
      'skipped 3: needs PostgreSQL (DATABASE_URL unset)',
      'skipped 1: needs the vendor sandbox',
    ]);
  });
});
