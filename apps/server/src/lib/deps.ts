import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '@proxy/db';
import type { TServerConfig } from '../config/env';
import type { TClock } from './clock';
import type { TJwt } from './jwt';
import type { TMailer } from './mailer';
import type { TRateLimiter } from './rate-limiter';

/** Shared services handed to every feature. */
export type TDeps = {
  config: TServerConfig;
  db: TDb;
  dbKind: 'pglite' | 'postgres';
  clock: TClock;
  jwt: TJwt;
  mailer: TMailer;
  /** Attempts on login, code, register and reset. */
  authLimiter: TRateLimiter;
  log: FastifyBaseLogger;
};
