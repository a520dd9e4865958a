import type { FastifyBaseLogger } from 'fastify';

/** A periodic job: runOnce does one pass and answers how many rows it processed. */
export type TJob = { name: string; runOnce(): Promise<number> };

/** Told of every pass of every job (the metrics): its time, and its rows or its failure. */
export type TJobObserver = {
  passed(job: string, seconds: number, rows: number): void;
  failed(job: string, seconds: number): void;
};

/** Starts and stops periodic jobs. */
export type TJobRunner = {
  start(): void;
  /** Stops scheduling and waits for the pass in progress. */
  stop(): Promise<void>;
  /** Runs every job once now, in order (tests and start-up). */
  runAllOnce(): Promise<Record<string, number>>;
};

/**
 * Runs each job every `intervalMs`, one pass at a time (a pass never overlaps
 * the next). A failing pass is logged and retried at the next tick.
 */
export function createJobRunner(options: {
  jobs: TJob[];
  intervalMs: number;
  log: Pick<FastifyBaseLogger, 'error'>;
  observer?: TJobObserver;
}): TJobRunner {
  const { observer } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let isStopped = true;

  async function runAllOnce(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const job of options.jobs) {
      const startedAt = performance.now();
      try {
        counts[job.name] = await job.runOnce();
        observer?.passed(job.name, (performance.now() - startedAt) / 1000, counts[job.name]);
      } catch (error) {
        options.log.error({ err: error, job: job.name }, 'job pass failed');
        counts[job.name] = 0;
        observer?.failed(job.name, (performance.now() - startedAt) / 1000);
      }
    }
    return counts;
  }

  function schedule(): void {
    if (isStopped) return;
    timer = setTimeout(() => {
      running = runAllOnce().finally(() => {
        running = undefined;
        schedule();
      });
    }, options.intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!isStopped) return;
      isStopped = false;
      schedule();
    },
    async stop() {
      isStopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    runAllOnce,
  };
}

/** Runs `step` until it reports no more rows or `max` rows were processed; one row per call. */
export async function drain(step: () => Promise<boolean>, max: number): Promise<number> {
  let processed = 0;
  while (processed < max && (await step())) processed += 1;
  return processed;
}
