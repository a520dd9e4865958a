import type { TDb } from '@proxy/db';
import type { TConnectionLimiter } from './connection-limits';
import type { TPoolCounts } from './metrics';
import type { TGatewayStateOptions } from './gateway-state';
import type { TTargetPolicy } from './target-policy';

/** Options of a gateway: where it listens, its database and its rules. */
export type TGatewayOptions = {
  host: string;
  port: number;
  db: TDb;
  policy: TTargetPolicy;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** How often live connections are re-checked and their bytes sampled. */
  sampleIntervalMs?: number;
  /** At a clean stop, how long open connections may run on after the listener closed (default 0: closed at once). */
  drainMs?: number;
  /** Candidates (exits, pools) one connection dials at most before it is refused (default 3). */
  dialTries?: number;
  /** Simultaneous connections per token, when counted outside this process (a cluster's workers). */
  limiter?: TConnectionLimiter;
  /** The process's default metrics (CPU, memory) in the gateway's registry (default true; embedded: the API's have them). */
  defaultMetrics?: boolean;
  /** The gateway's own database pool, for its metrics (a standalone gateway on PostgreSQL). */
  dbPool?: TPoolCounts;
} & Omit<TGatewayStateOptions, 'db' | 'counters'>;
