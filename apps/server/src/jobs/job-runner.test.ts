import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner, drain, type TJob } from './job-runner';

const INTERVAL_MS = 1000;

// A clean stop of the API stops its job runners: the row in progress is finished (each row is its own
// transaction), no further row, job or pass starts, and stop() resolves once the pass has ended.
describe('the job runner at a stop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('finishes the row in progress, then starts no further row, job or pass', async () => {
    vi.useFakeTimers();
    let rowsStarted = 0;
    let rowsDone = 0;
    let otherRuns = 0;
    let releaseRow: () => void = () => {};
    let onRowStarted: () => void = () => {};
    const rowStarted = new Promise<void>((resolve) => (onRowStarted = resolve));
    const rows: TJob = {
      name: 'rows',
      runOnce: (stopping) =>
        drain(
          async () => {
            rowsStarted += 1;
            onRowStarted();
            await new Promise<void>((resolve) => (releaseRow = resolve));
            rowsDone += 1;
            return true;
          },
          100,
          stopping,
        ),
    };
    const other: TJob = { name: 'other', runOnce: async () => ++otherRuns };
    const runner = createJobRunner({ jobs: [rows, other], intervalMs: INTERVAL_MS, log: { error: () => {} } });
    runner.start();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    await rowStarted;

    let isStopped = false;
    const stopped = runner.stop().then(() => (isStopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(isStopped).toBe(false);
    releaseRow();
    await stopped;
    expect({ rowsStarted, rowsDone, otherRuns }).toEqual({ rowsStarted: 1, rowsDone: 1, otherRuns: 0 });
    // Nothing is scheduled any more.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs again when started after a stop', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const runner = createJobRunner({
      jobs: [{ name: 'count', runOnce: (stopping) => drain(async () => ++runs < 3, 10, stopping) }],
      intervalMs: INTERVAL_MS,
      log: { error: () => {} },
    });
    runner.start();
    await runner.stop();
    runner.start();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    await runner.stop();
    expect(runs).toBe(3);
  });
});
