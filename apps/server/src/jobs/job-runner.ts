import type { FastifyBaseLogger } from 'fastify';

/**
 * A periodic job: runOnce does one pass and answers how many rows it processed. `stopping` is aborted when the
 * runner stops: a pass of many rows ends after the row in progress (each row is its own transaction).
 */
export type TJob = { name: string; runOnce(stopping?: AbortSignal): Promise<number> };

/** Told of every pass of every job (the metrics): its time, and its rows or its failure. */
export type TJobObserver = {
  passed(job: string, seconds: number, rows: number): void;
  failed(job: string, seconds: number): void;
};

/** Starts and stops periodic jobs. */
export type TJobRunner = {
  start(): void;
  /** Stops scheduling; the pass in progress ends after the row in progress and starts no further job. Resolves once it has. */
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
  let stopping = new AbortController();

  async function runAllOnce(signal?: AbortSignal): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const job of options.jobs) {
      if (signal?.aborted) break;
      const startedAt = performance.now();
      try {
        counts[job.name] = await job.runOnce(signal);
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
      running = runAllOnce(stopping.signal).finally(() => {
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
      if (stopping.signal.aborted) stopping = new AbortController();
      schedule();
    },
    async stop() {
      isStopped = true;
      stopping.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
    runAllOnce: () => runAllOnce(),
  };
}

/** Runs `step` until it reports no more rows, `max` rows were processed or the runner stops; one row per call. */
export async function drain(step: () => Promise<boolean>, max: number, stopping?: AbortSignal): Promise<number> {
  let processed = 0;
  while (processed < max && !stopping?.aborted && (await step())) processed += 1;
  return processed;
}
