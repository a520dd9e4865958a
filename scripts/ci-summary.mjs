// Prints one totals line per suite and the overall "N passed, N failed, N skipped" line.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`${file}: no report (the suite did not run)`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const p = r.numPassedTests ?? 0;
  const f = r.numFailedTests ?? 0;
  const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if (r.success === false && f === 0) {
    // Vitest fails a run with errors outside tests (a failed hook or file, an unhandled rejection).
    console.log(`${file}: the run reported errors outside the tests (see its log)`);
    failed += 1;
  }
  console.log(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
