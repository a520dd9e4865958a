import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { TGatewayCheck, TGatewayReadiness } from './readiness';

/**
 * Metrics and readiness of a clustered gateway: the primary serves them (the
 * workers listen on no metrics port) and asks each worker that has said
 * `gateway.ready` for its registry's values and its readiness, one message
 * each way. Counters and histograms are summed across workers (prom-client's
 * aggregation; each metric's `aggregator` says otherwise, see metrics.ts).
 * A worker that does not answer within WORKER_TIMEOUT_MS (starting, stuck,
 * exiting) is left out and counted as missing.
 */

const WORKER_TIMEOUT_MS = 2000;

type TScrapeRequest = { kind: 'gateway.scrape'; id: number };
type TScrapeAnswer = {
  kind: 'gateway.scraped';
  id: number;
  metrics: object[];
  readiness: TGatewayReadiness;
};

function isScrapeAnswer(message: unknown): message is TScrapeAnswer {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'gateway.scraped';
}

/** A worker's side: answers the primary's scrapes from its gateway. Answers how to stop. */
export function serveClusterWorker(gateway: {
  metrics: { registry: { getMetricsAsJSON(): Promise<object[]> } };
  readiness(): Promise<TGatewayReadiness>;
}): () => void {
  const onMessage = (message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    const request = message as Partial<TScrapeRequest>;
    if (request.kind !== 'gateway.scrape' || typeof request.id !== 'number') return;
    const id = request.id;
    void Promise.all([gateway.metrics.registry.getMetricsAsJSON(), gateway.readiness()]).then(
      ([metrics, readiness]) => {
        if (process.connected)
          process.send?.({ kind: 'gateway.scraped', id, metrics, readiness } satisfies TScrapeAnswer);
      },
      () => {},
    );
  };
  process.on('message', onMessage);
  return () => process.off('message', onMessage);
}

/** The primary's view of its workers' metrics and readiness. */
export type TClusterMetrics = {
  /** The workers' metrics, aggregated, as exposition text. */
  text(): Promise<string>;
  contentType: string;
  /** Ready when at least one worker serves, and every serving worker answered ready. */
  readiness(): Promise<TGatewayReadiness & { workers: { ready: number; answered: number } }>;
  close(): void;
};

/** Starts following the workers' readiness (their `gateway.ready` message) in a cluster's primary. */
export function startClusterMetrics(): TClusterMetrics {
  const serving = new Set<Worker>();
  let nextId = 0;
  const waiting = new Map<number, { worker: Worker; resolve: (answer: TScrapeAnswer | null) => void }>();
  const onMessage = (worker: Worker, message: unknown) => {
    const kind = (message as { kind?: unknown } | null)?.kind;
    if (kind === 'gateway.ready') serving.add(worker);
    if (!isScrapeAnswer(message)) return;
    const entry = waiting.get(message.id);
    if (!entry || entry.worker !== worker) return;
    waiting.delete(message.id);
    entry.resolve(message);
  };
  const onExit = (worker: Worker) => {
    serving.delete(worker);
    for (const [id, entry] of waiting) {
      if (entry.worker !== worker) continue;
      waiting.delete(id);
      entry.resolve(null);
    }
  };
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);

  // Each serving worker's answer, or null when it gave none in time.
  function scrape(): Promise<(TScrapeAnswer | null)[]> {
    return Promise.all(
      [...serving].map(
        (worker) =>
          new Promise<TScrapeAnswer | null>((resolve) => {
            if (!worker.isConnected()) return resolve(null);
            nextId += 1;
            const id = nextId;
            const timer = setTimeout(() => {
              waiting.delete(id);
              resolve(null);
            }, WORKER_TIMEOUT_MS);
            waiting.set(id, {
              worker,
              resolve: (answer) => {
                clearTimeout(timer);
                resolve(answer);
              },
            });
            worker.send({ kind: 'gateway.scrape', id } satisfies TScrapeRequest);
          }),
      ),
    );
  }

  return {
    async text() {
      const answers = await scrape();
      const answered = answers.filter((a): a is TScrapeAnswer => a !== null);
      const workers = AggregatorRegistry.aggregate(answered.map((a) => a.metrics));
      const own =
        '# HELP proxy_gateway_cluster_workers Workers of the clustered gateway, by state (serving: said ready; answered: in this scrape)\n' +
        '# TYPE proxy_gateway_cluster_workers gauge\n' +
        `proxy_gateway_cluster_workers{state="serving"} ${answers.length}\n` +
        `proxy_gateway_cluster_workers{state="answered"} ${answered.length}\n`;
      return `${await workers.metrics()}\n${own}`;
    },
    contentType: AggregatorRegistry.PROMETHEUS_CONTENT_TYPE,
    async readiness() {
      const answers = await scrape();
      const answered = answers.filter((a): a is TScrapeAnswer => a !== null);
      const reasons: string[] = [];
      answers.forEach((answer, i) => {
        if (!answer) reasons.push(`worker ${i + 1}: no answer within ${WORKER_TIMEOUT_MS / 1000} s`);
        else reasons.push(...answer.readiness.reasons.map((reason) => `worker ${i + 1}: ${reason}`));
      });
      if (answers.length === 0) reasons.push('workers: none serving yet');
      // A check fails when it fails on any worker (its first reason), or when no worker answered.
      const combined = (name: 'state' | 'database'): TGatewayCheck => {
        if (answered.length === 0) return { status: 'failed', reason: 'no worker answered' };
        return answered.map((a) => a.readiness.checks[name]).find((c) => c.status === 'failed') ?? { status: 'ok' };
      };
      return {
        status: reasons.length === 0 ? 'ready' : 'not_ready',
        checks: { state: combined('state'), database: combined('database') },
        reasons,
        workers: {
          ready: answered.filter((a) => a.readiness.status === 'ready').length,
          answered: answered.length,
        },
      };
    },
    close() {
      cluster.off('message', onMessage);
      cluster.off('exit', onExit);
    },
  };
}
