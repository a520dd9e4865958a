// Prints what failed (each failed test with its message, and the errors a run reported outside
// its tests, taken from the suite's log beside its report), then one totals line per suite and
// the overall "N passed, N failed, N skipped" line, then the skipped tests counted by reason.
// Failures come before the totals so that the tail of the CI output, which is what is kept of
// it, shows them.
//
// A skipped test says why at the end of its name or its group's: "… [skipped: <reason>]" (the
// helpers of packages/db/src/testing.ts name them so). A skipped test without a reason fails the
// summary; so does a todo. Tests left unrun because their file or a hook failed are counted as such.
import { existsSync, readFileSync } from 'node:fs';

const MESSAGE_LINES = 25;
const LOG_ERROR_LINES = 120;
// eslint-disable-next-line no-control-regex
const stripAnsi = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
const head = (text, lines) => {
  const all = stripAnsi(text).split('\n');
  return all.slice(0, lines).join('\n') + (all.length > lines ? `\n… (${all.length - lines} more lines)` : '');
};

/** The "Failed Suites" and "Unhandled Errors" blocks of a Vitest log (default reporter); undefined if it has none. */
function errorsOutsideTests(logFile) {
  if (!existsSync(logFile)) return undefined;
  const log = stripAnsi(readFileSync(logFile, 'utf8'));
  const start = log.search(/⎯+ (Unhandled \w+|Failed Suites? \d+) ⎯+/);
  if (start < 0) return undefined;
  const end = log.indexOf(' Test Files ', start);
  return head(log.slice(start, end < 0 ? undefined : end).trim(), LOG_ERROR_LINES);
}

/** The block a Vitest log (default reporter) prints for a failed test, from its FAIL line; undefined if none. */
function failureInLog(reportFile, title) {
  const logFile = reportFile.replace(/\.json$/, '.log');
  if (!existsSync(logFile)) return undefined;
  const lines = stripAnsi(readFileSync(logFile, 'utf8')).split('\n');
  const start = lines.findIndex((line) => /^\s*FAIL\s/.test(line) && line.trimEnd().endsWith(`> ${title}`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^\s*⎯{3,}/.test(line));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

const SKIP_REASON = /\[skipped: ([^\]]+)\]\s*$/;
const NOT_RUN_FILE_FAILED = 'not run: their file or a hook failed (see what failed)';
const NOT_SKIPPED = new Set(['passed', 'failed']);

/** The reason a skipped test gives in its name or its groups' (the innermost first), or undefined. */
function skipReason(test) {
  for (const name of [test.title, ...[...(test.ancestorTitles ?? [])].reverse()]) {
    const match = SKIP_REASON.exec(name ?? '');
    if (match) return match[1].trim();
  }
  return undefined;
}

const totals = [];
const failures = [];
/** Skipped tests by reason, over every report. */
const skippedBy = new Map();
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    totals.push(`${file}: no report (the suite did not run)`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const p = r.numPassedTests ?? 0;
  const f = r.numFailedTests ?? 0;
  const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  const unexplained = [];
  for (const suite of r.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const message = (test.failureMessages ?? []).join('\n');
      // Vitest's report holds only a placeholder for some errors (a test out of time); its log has the words.
      const said = message.startsWith('Error: STACK_TRACE_ERROR')
        ? (failureInLog(file, test.title) ?? message)
        : message;
      failures.push(`--- ${file}: FAILED ${suite.name}\n    ${test.fullName}\n${head(said, MESSAGE_LINES)}`);
    }
    // A failed hook (beforeAll) fails its file and skips its tests; its error is in the log's block below.
    const hasFailedTest = (suite.assertionResults ?? []).some((test) => test.status === 'failed');
    for (const test of suite.assertionResults ?? []) {
      if (NOT_SKIPPED.has(test.status)) continue;
      const reason =
        test.status === 'todo'
          ? undefined
          : (skipReason(test) ?? (suite.status === 'failed' ? NOT_RUN_FILE_FAILED : undefined));
      if (reason) skippedBy.set(reason, (skippedBy.get(reason) ?? 0) + 1);
      else unexplained.push(`    ${suite.name}: ${test.fullName} (${test.status})`);
    }
    if (suite.status === 'failed' && !hasFailedTest)
      failures.push(
        `--- ${file}: FAILED FILE ${suite.name}\n${head(suite.message || '(a hook or the file itself failed)', MESSAGE_LINES)}`,
      );
  }
  // Vitest fails a run with errors outside tests (a failed hook or file, an unhandled rejection),
  // with or without failed tests beside them.
  const logFile = file.replace(/\.json$/, '.log');
  const outside = r.success === false ? errorsOutsideTests(logFile) : undefined;
  if (outside !== undefined || (r.success === false && f === 0)) {
    totals.push(`${file}: the run reported errors outside the tests`);
    failures.push(`--- ${file}: errors outside the tests, from its log\n${outside ?? `(none named in ${logFile})`}`);
    failed += 1;
  }
  if (unexplained.length > 0) {
    totals.push(`${file}: ${unexplained.length} skipped without a reason`);
    failures.push(
      `--- ${file}: skipped without a reason (end the test's or its group's name with "[skipped: <reason>]")\n${unexplained.join('\n')}`,
    );
    failed += 1;
  }
  totals.push(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
if (failures.length > 0) console.log(`=== what failed ===\n${failures.join('\n\n')}\n`);
for (const line of totals) console.log(line);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
for (const [reason, count] of [...skippedBy].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
  console.log(`skipped ${count}: ${reason}`);
process.exit(failed > 0 ? 1 : 0);
