import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '@proxy/db';
import type { TServerConfig } from '../config/env';
import type { TAnswerCache } from './answer-cache';
import type { TClock } from './clock';
import type { TJwt } from './jwt';
import type { TApiMetrics } from './metrics';
import type { TMailer } from './mailer';
import type { TAuthLimiter } from './rate-limiter';
import type { TPayProviders } from '../features/payments/providers';

/** Shared services handed to every feature. */
export type TDeps = {
  config: TServerConfig;
  db: TDb;
  dbKind: 'pglite' | 'postgres';
  clock: TClock;
  jwt: TJwt;
  mailer: TMailer;
  /** Attempts on login, code, register, reset, OAuth and password change (shared by every instance on PostgreSQL). */
  authLimiter: TAuthLimiter;
  log: FastifyBaseLogger;
  /**
   * Resolves once a gateway running in this process has applied the latest
   * committed change of tokens or IP lists (embedded mode), so the answer that
   * follows is already true at the gateway. A no-op when gateways run apart:
   * they are told by NOTIFY and look unknown credentials up themselves.
   */
  gatewayApplied: () => Promise<void>;
  /** Lists and sessions kept in memory per account, dropped by the database's notifications. */
  answerCache: TAnswerCache;
  /** Payment providers that are on (PAY_SANDBOX, ALIPAY_*, WECHAT_PAY_*). */
  payProviders: TPayProviders;
  /** This process's metrics (lib/metrics.ts). */
  metrics: TApiMetrics;
  /** The embedded gateway's readiness (its state loaded and fresh); undefined when gateways run apart. */
  gatewayHealth?: () => TGatewayHealth;
};

/** Whether a gateway's state is loaded and fresh, and why not. */
export type TGatewayHealth = { isReady: boolean; reason?: string };
