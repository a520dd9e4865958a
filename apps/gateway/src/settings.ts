import { z } from 'zod';
import { metricsListenProblems, zSettingFlag, zSettingListen, zSettingText } from '@proxy/contract';
import {
  createSecretBox,
  GATEWAY_CHANGES_CHANNEL,
  listenForNotifications,
  parseDataKey,
  type TDbHandle,
} from '@proxy/db';
import type { TGatewayOptions } from './gateway-options';

const bool = zSettingFlag;
const optionalText = zSettingText;

/**
 * The gateway's own settings, read from the environment (GATEWAY_*). The
 * composition root (apps/launcher) reads them for a standalone gateway and for
 * the gateway embedded in the API process alike; no other app declares them.
 */
export const ZGatewaySettings = z.object({
  /** Bind address (default: 0.0.0.0 standalone, the API's HOST when embedded). */
  GATEWAY_HOST: optionalText,
  /** Proxy port (HTTP, CONNECT and SOCKS5). */
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(7777),
  /**
   * http:// URLs of the proxy test's echo (the API's TOKEN_TEST_ECHO_URL), comma separated. On an echo's
   * host and port only a GET of its path passes; everything else there is refused.
   */
  GATEWAY_ECHO_URLS: z.string().default(''),
  /** Tests only: allow loopback and private targets. */
  GATEWAY_ALLOW_PRIVATE_TARGETS: bool,
  /** Processes of a standalone gateway sharing its port (default: one per core); embedded, the gateway is one. */
  GATEWAY_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  /** Simultaneous connections per proxy token. */
  GATEWAY_MAX_CONNECTIONS_PER_TOKEN: z.coerce.number().int().min(1).default(200),
  /**
   * At a clean stop (SIGTERM, a worker replaced by a rolling restart), open tunnels run on at most this many seconds
   * after the gateway stopped accepting; then they are closed, their bytes written and the leases given back.
   */
  GATEWAY_DRAIN_S: z.coerce.number().int().min(0).max(3600).default(30),
  /** Idle connections are closed after this many seconds. */
  GATEWAY_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).default(120),
  /** Traffic allowance claimed per lease, in bytes (bounds overshoot per gateway). */
  GATEWAY_LEASE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 * 1024),
  /** A gateway silent this many seconds (killed, cut off) has its unspent leases returned by the others. */
  GATEWAY_LEASE_EXPIRY_S: z.coerce.number().int().min(1).default(30),
  /**
   * Where Prometheus scrapes a standalone gateway (GET /metrics, /health/live, /health/ready): host:port, or off.
   * A clustered gateway's primary serves it for all its workers. Embedded, the API's METRICS_LISTEN has the
   * gateway's metrics and this is not used. Off loopback, GATEWAY_METRICS_TOKEN is required.
   */
  GATEWAY_METRICS_LISTEN: zSettingListen('127.0.0.1:9465'),
  /** Bearer token a scraper of GATEWAY_METRICS_LISTEN sends (Authorization: Bearer <token>), at least 16 characters. */
  GATEWAY_METRICS_TOKEN: zSettingText,
  /**
   * Candidates (exits and upstream pools of the area) one connection dials at most, in their order, before it is
   * refused: a candidate that refuses or does not answer before any byte of the request went upstream is followed
   * by the next. Pools skipped for an open circuit or their max_connections are not dialled and do not count.
   */
  GATEWAY_DIAL_TRIES: z.coerce.number().int().min(1).max(10).default(3),
  /** Consecutive failed dials through a pool (or, for area refusals, a pool's country) that make a process skip it. */
  GATEWAY_POOL_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** Seconds a process skips such a pool (or country); then one trial connection closes the circuit or opens it again. */
  GATEWAY_POOL_BREAKER_OPEN_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** The gateway is not ready when its copy of the state last matched the database longer ago than this (seconds). */
  GATEWAY_STATE_STALE_S: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * The API's DATA_ENCRYPTION_KEY (the same value): opens the sealed passwords of upstream exits the gateway dials
   * with. A standalone gateway needs it once the inventory holds a password (it does not start without it then);
   * embedded, the API's key is used and this is not read.
   */
  DATA_ENCRYPTION_KEY: zSettingText.refine(
    (v) => v === undefined || parseDataKey(v) !== null,
    "32 bytes as 64 hex digits or base64, the same value as the API's",
  ),
});

/** Parsed gateway settings. */
export type TGatewaySettings = z.output<typeof ZGatewaySettings>;

/** Parses the gateway's settings; throws a readable list of what is wrong. */
export function loadGatewaySettings(env: NodeJS.ProcessEnv = process.env): TGatewaySettings {
  const parsed = ZGatewaySettings.safeParse(env);
  const problems = parsed.success
    ? metricsListenProblems(parsed.data.GATEWAY_METRICS_LISTEN, parsed.data.GATEWAY_METRICS_TOKEN, {
        listen: 'GATEWAY_METRICS_LISTEN',
        token: 'GATEWAY_METRICS_TOKEN',
      })
    : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (!parsed.success || problems.length > 0)
    throw new Error(`Invalid gateway configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return parsed.data;
}

/** Options of startGateway from the settings, plus what the run mode decides (database, bind address, the API's echo). */
export function gatewayOptionsOf(
  settings: TGatewaySettings,
  run: {
    database: TDbHandle;
    defaultHost: string;
    echoUrls?: string[];
    onError?: TGatewayOptions['onError'];
    /** Embedded in the API process: the API's registry has the process's metrics and its database pool's. */
    isEmbedded?: boolean;
    /** The API's key of secrets at rest, when the gateway runs in its process (else DATA_ENCRYPTION_KEY is read). */
    dataKey?: Buffer;
  },
): TGatewayOptions {
  const dataKey =
    run.dataKey ?? (settings.DATA_ENCRYPTION_KEY ? parseDataKey(settings.DATA_ENCRYPTION_KEY) : null) ?? null;
  return {
    db: run.database.db,
    listen: (onChange) => listenForNotifications(run.database, GATEWAY_CHANGES_CHANNEL, onChange),
    host: settings.GATEWAY_HOST ?? run.defaultHost,
    port: settings.GATEWAY_PORT,
    policy: {
      allowPrivateTargets: settings.GATEWAY_ALLOW_PRIVATE_TARGETS,
      echoUrls: [
        ...settings.GATEWAY_ECHO_URLS.split(',')
          .map((e) => e.trim())
          .filter(Boolean),
        ...(run.echoUrls ?? []),
      ],
    },
    maxConnectionsPerToken: settings.GATEWAY_MAX_CONNECTIONS_PER_TOKEN,
    idleTimeoutMs: settings.GATEWAY_IDLE_TIMEOUT_S * 1000,
    drainMs: settings.GATEWAY_DRAIN_S * 1000,
    leaseBytes: settings.GATEWAY_LEASE_BYTES,
    leaseExpiryMs: settings.GATEWAY_LEASE_EXPIRY_S * 1000,
    staleAfterMs: settings.GATEWAY_STATE_STALE_S * 1000,
    dialTries: settings.GATEWAY_DIAL_TRIES,
    poolBreakerFailures: settings.GATEWAY_POOL_BREAKER_FAILURES,
    poolBreakerOpenMs: settings.GATEWAY_POOL_BREAKER_OPEN_S * 1000,
    defaultMetrics: !run.isEmbedded,
    dbPool: run.isEmbedded ? undefined : run.database.pool,
    onError: run.onError,
    secretBox: dataKey ? createSecretBox(dataKey) : null,
  };
}
