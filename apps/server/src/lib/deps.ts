import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '@proxy/db';
import type { TServerConfig } from '../config/env';
import type { TClock } from './clock';
import type { TJwt } from './jwt';
import type { TMailer } from './mailer';
import type { TAuthLimiter } from './rate-limiter';

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
};
