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

/** Runs Vitest on one file as .ci/run does; returns the report's path (its log beside it). */
async function vitestReport(dir: string, name: string, source: string): Promise<string> {
  const root = path.join(dir, name);
  mkdirSync(root);
  writeFileSync(path.join(root, 'made-up.test.ts'), source);
  // The child is a run of its own, not a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
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
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ci-summary-'));
    [hookFails, testFails, bothFail, passing] = await Promise.all([
      vitestReport(dir, 'hook', HOOK_FAILS),
      vitestReport(dir, 'test', TEST_FAILS),
      vitestReport(dir, 'both', BOTH_FAIL),
      vitestReport(dir, 'passing', PASSING),
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

  it("names a file whose hook failed (its tests skipped) and prints the hook's error from the log", async () => {
    const { code, out } = await summary(hookFails);
    expect(code).toBe(1);
    const failures = out.slice(0, out.indexOf(`${hookFails}: the run reported`));
    expect(failures).toContain(`FAILED FILE ${path.join(dir, 'hook', 'made-up.test.ts')}`);
    expect(failures).toContain('the hook broke');
    expect(out.trimEnd().split('\n').slice(-3)).toEqual([
      `${hookFails}: the run reported errors outside the tests`,
      `${hookFails}: 1 passed, 0 failed, 2 skipped`,
      '1 passed, 1 failed, 2 skipped',
    ]);
  });

  it('prints a failed hook beside a failed test of the same run', async () => {
    const { code, out } = await summary(bothFail);
    expect(code).toBe(1);
    expect(out).toContain('adds wrongly');
    expect(out).toContain('the hook broke');
    expect(out.trimEnd().split('\n').slice(-3)).toEqual([
      `${bothFail}: the run reported errors outside the tests`,
      `${bothFail}: 1 passed, 1 failed, 2 skipped`,
      '1 passed, 2 failed, 2 skipped',
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
});
