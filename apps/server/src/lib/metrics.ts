import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { TDbHandle } from '@proxy/db';
import type { TAnswerCacheStats } from './answer-cache';
import type { TJobObserver } from '../jobs/job-runner';

/**
 * The API's metrics (Prometheus text format, scraped on METRICS_LISTEN by the
 * launcher's listener). One registry per app, never prom-client's global one:
 * test files share a module cache, and an embedded gateway's registry is read
 * beside this one. Labels are bounded: route names, status codes, job names,
 * payment methods and outcomes; never a user, token, address or exit.
 *
 * What is counted on a request's path is a cheap increment; numbers another
 * module keeps anyway (the answer cache, the pool, the webhook queue) are read
 * when scraped.
 */

/** HTTP latency buckets, in seconds. */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Job pass buckets, in seconds (a pass may wait on providers and receivers). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
/** Change-feed catch-up buckets (one NOTIFY round trip), in seconds. */
const FEED_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/** What a payment notification came to: a settlement's result, refused by its provider, or failed (thrown). */
export type TPaymentOutcome = 'credited' | 'replay' | 'failed' | 'refused' | 'error';
/** What a webhook attempt came to: delivered, to be retried, given up, or not recorded (the sender threw). */
export type TWebhookOutcome = 'succeeded' | 'retry' | 'failed' | 'error';

const PAYMENT_OUTCOMES: readonly TPaymentOutcome[] = ['credited', 'replay', 'failed', 'refused', 'error'];
const WEBHOOK_OUTCOMES: readonly TWebhookOutcome[] = ['succeeded', 'retry', 'failed', 'error'];

/** The webhook queue as the database has it (every API instance's). */
export type TWebhookBacklog = { pending: number; oldestDueSeconds: number };

/** Sources read when scraped, attached once the app has built them. */
type TSources = {
  answerCache?: () => TAnswerCacheStats;
  webhookBacklog?: () => Promise<TWebhookBacklog>;
};

// A source that does not answer in this long is left out of the scrape (a scrape never hangs on the database).
const SOURCE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), SOURCE_TIMEOUT_MS);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Creates the API's registry and metrics; `database` gives the pool (PostgreSQL; PGlite has none),
 * `providers` the payment methods that are on (their series start at 0).
 */
export function createApiMetrics(options: {
  database: TDbHandle;
  providers?: readonly string[];
  defaultMetrics?: boolean;
}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const sources: TSources = {};
  const registers = [registry];

  // --- HTTP -------------------------------------------------------------------
  const requests = new Counter({
    name: 'proxy_api_http_requests_total',
    help: 'HTTP requests answered, by route (the route name of the contract, or the path pattern) and status',
    labelNames: ['route', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'proxy_api_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route',
    labelNames: ['route'],
    buckets: HTTP_BUCKETS,
    registers,
  });
  // Label objects made once per route and status: a request allocates none.
  const routeLabels = new Map<
    string,
    { labels: { route: string }; byStatus: Map<number, { route: string; status: string }> }
  >();

  // --- database pool (PostgreSQL) ---------------------------------------------
  const pool = options.database.pool;
  if (pool) {
    new Gauge({
      name: 'proxy_api_db_pool_connections',
      help: "Connections of this process's database pool, by state (in_use, idle)",
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'proxy_api_db_pool_waiting',
      help: 'Queries waiting for a connection of the pool',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'proxy_api_db_pool_max',
      help: 'Size bound of the pool',
      registers,
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
  }

  // --- jobs -------------------------------------------------------------------
  const jobRuns = new Counter({
    name: 'proxy_api_job_runs_total',
    help: 'Passes of each job, by outcome (ok, failed)',
    labelNames: ['job', 'outcome'],
    registers,
  });
  const jobRows = new Counter({
    name: 'proxy_api_job_rows_total',
    help: 'Rows (items) the passes of each job processed',
    labelNames: ['job'],
    registers,
  });
  const jobDuration = new Histogram({
    name: 'proxy_api_job_duration_seconds',
    help: 'Time of one pass of each job',
    labelNames: ['job'],
    buckets: JOB_BUCKETS,
    registers,
  });
  const lastSuccess = new Map<string, number>();
  new Gauge({
    name: 'proxy_api_job_lag_seconds',
    help: 'Seconds since the last successful pass of each job ended (grows while it fails or its runner stalls)',
    labelNames: ['job'],
    registers,
    collect() {
      const now = performance.now();
      for (const [job, at] of lastSuccess) this.set({ job }, (now - at) / 1000);
    },
  });
  const jobs: TJobObserver = {
    passed(job, seconds, rows) {
      jobRuns.inc({ job, outcome: 'ok' });
      jobRows.inc({ job }, rows);
      jobDuration.observe({ job }, seconds);
      lastSuccess.set(job, performance.now());
    },
    failed(job, seconds) {
      jobRuns.inc({ job, outcome: 'failed' });
      jobDuration.observe({ job }, seconds);
    },
  };

  // --- payments and webhooks ----------------------------------------------------
  const notifications = new Counter({
    name: 'proxy_api_payment_notifications_total',
    help: 'Payment notifications received, by provider (payment method) and outcome',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  for (const provider of options.providers ?? [])
    for (const outcome of PAYMENT_OUTCOMES) notifications.inc({ provider, outcome }, 0);
  const deliveries = new Counter({
    name: 'proxy_api_webhook_deliveries_total',
    help: 'Webhook delivery attempts of this process, by outcome (succeeded, retry, failed: given up, error)',
    labelNames: ['outcome'],
    registers,
  });
  // Every outcome from the start, at 0: a rate over a series that appears only with its first event misses it.
  for (const outcome of WEBHOOK_OUTCOMES) deliveries.inc({ outcome }, 0);
  const backlogPending = new Gauge({
    name: 'proxy_api_webhook_backlog',
    help: 'Webhook deliveries waiting (pending) in the database, every instance together',
    registers,
  });
  const backlogAge = new Gauge({
    name: 'proxy_api_webhook_backlog_oldest_seconds',
    help: 'Seconds the oldest due webhook delivery has been waiting (0 when none is due)',
    registers,
  });
  const backlogScrapeFailures = new Counter({
    name: 'proxy_api_webhook_backlog_read_failures_total',
    help: 'Scrapes whose read of the webhook queue failed or took over 2 s (the backlog gauges kept their last value)',
    registers,
  });

  // --- answer cache and change feed --------------------------------------------
  // Totals the cache keeps as plain numbers (a kept answer's path does no more), set when scraped.
  new Counter({
    name: 'proxy_api_answer_cache_requests_total',
    help: 'Look-ups in the answer cache, by kind (answer, session) and result (hit, miss)',
    labelNames: ['kind', 'result'],
    registers,
    collect() {
      const stats = sources.answerCache?.();
      if (!stats) return;
      this.reset();
      this.inc({ kind: 'answer', result: 'hit' }, stats.answerHits);
      this.inc({ kind: 'answer', result: 'miss' }, stats.answerMisses);
      this.inc({ kind: 'session', result: 'hit' }, stats.sessionHits);
      this.inc({ kind: 'session', result: 'miss' }, stats.sessionMisses);
    },
  });
  new Counter({
    name: 'proxy_api_answer_cache_drops_total',
    help: 'Accounts whose kept answers were dropped, by reason (change: a notification; feed: the feed was lost or came back; memory: the ANSWER_CACHE_MB bound)',
    labelNames: ['reason'],
    registers,
    collect() {
      const stats = sources.answerCache?.();
      if (!stats) return;
      this.reset();
      this.inc({ reason: 'change' }, stats.dropsByChange);
      this.inc({ reason: 'feed' }, stats.dropsByFeed);
      this.inc({ reason: 'memory' }, stats.dropsByMemory);
    },
  });
  new Gauge({
    name: 'proxy_api_answer_cache_bytes',
    help: 'Memory the kept answers and sessions take (bounded by ANSWER_CACHE_MB)',
    registers,
    collect() {
      this.set(sources.answerCache?.().bytes ?? 0);
    },
  });
  new Gauge({
    name: 'proxy_api_answer_cache_accounts',
    help: 'Accounts with answers or sessions kept',
    registers,
    collect() {
      this.set(sources.answerCache?.().accounts ?? 0);
    },
  });
  new Gauge({
    name: 'proxy_api_change_feed_live',
    help: "1 while the change feed's listening connection is up (0: down, nothing is answered from memory; absent with ANSWER_CACHE_MB=0)",
    registers,
    collect() {
      const stats = sources.answerCache?.();
      if (!stats || !stats.isOn) this.reset();
      else this.set(stats.isLive ? 1 : 0);
    },
  });
  const catchUps = new Histogram({
    name: 'proxy_api_change_feed_catchup_seconds',
    help: 'Change-feed lag: time of one catch-up (a NOTIFY round trip on the listening connection) a request waited for before memory could answer',
    buckets: FEED_BUCKETS,
    registers,
  });
  const catchUpFailures = new Counter({
    name: 'proxy_api_change_feed_catchup_failures_total',
    help: 'Catch-ups that failed (connection lost, or no answer within 5 s)',
    registers,
  });

  return {
    registry,
    /** A request answered: its route (name or pattern), status and time. */
    request(route: string, status: number, seconds: number): void {
      let known = routeLabels.get(route);
      if (!known) routeLabels.set(route, (known = { labels: { route }, byStatus: new Map() }));
      let byStatus = known.byStatus.get(status);
      if (!byStatus) known.byStatus.set(status, (byStatus = { route, status: String(status) }));
      requests.inc(byStatus);
      duration.observe(known.labels, seconds);
    },
    jobs,
    paymentNotification(provider: string, outcome: TPaymentOutcome): void {
      notifications.inc({ provider, outcome });
    },
    webhookDelivery(outcome: TWebhookOutcome): void {
      deliveries.inc({ outcome });
    },
    /** The answer cache's catch-ups (its change-feed lag). */
    changeFeed: {
      caughtUp(seconds: number, isCaughtUp: boolean): void {
        if (isCaughtUp) catchUps.observe(seconds);
        else catchUpFailures.inc();
      },
    },
    /** What is read when scraped: the answer cache's counters and the webhook queue. */
    attach(next: TSources): void {
      Object.assign(sources, next);
    },
    /** The exposition text (reads the webhook queue first, for at most 2 s). */
    async text(): Promise<string> {
      if (sources.webhookBacklog) {
        try {
          const backlog = await withTimeout(sources.webhookBacklog());
          backlogPending.set(backlog.pending);
          backlogAge.set(backlog.oldestDueSeconds);
        } catch {
          backlogScrapeFailures.inc();
        }
      }
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

/** The API's metrics. */
export type TApiMetrics = ReturnType<typeof createApiMetrics>;
