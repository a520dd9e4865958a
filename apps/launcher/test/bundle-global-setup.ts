import { execFileSync } from 'node:child_process';
import { ROOT } from './launched-process';

/**
 * Run-wide set-up of the launcher's suites: the bundle production runs (dist/launcher, `npm run build`) is built
 * again when a source file is newer than it, so the tests that start it start the code under test.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['apps/launcher/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
}
