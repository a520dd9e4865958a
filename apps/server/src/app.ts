import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '@proxy/contract';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import type { TDbHandle } from '@proxy/db';
import type { TServerConfig } from './config/env';
import { systemClock, type TClock } from './lib/clock';
import { clockWatchedByAnswers, createAnswerCache } from './lib/answer-cache';
import { createPayProviders } from './features/payments/providers';
import { registerPaymentCallbacks } from './features/payments/payment-callbacks';
import type { TDeps } from './lib/deps';
import { answerClientError, answerFrameworkError, installErrorHandler } from './lib/error-handler';
import { createJwt } from './lib/jwt';
import { createMailer, type TMailer } from './lib/mailer';
import { createApiMetrics } from './lib/metrics';
import { readDeliveryBacklog } from './features/webhooks/webhooks.repository';
import { createLoggerOptions } from './lib/logger';
import { createAuthLimiter } from './lib/rate-limiter';
import { registerRoutes, type THandlers } from './lib/routing';
import { createFeatureHandlers } from './features';
import { auditedDatabase } from './features/audit/audit.service';

/** What buildApp needs; tests pass their own database, clock and mailer. */
export type TAppOptions = {
  config: TServerConfig;
  database: TDbHandle;
  clock?: TClock;
  mailer?: TMailer;
  /** Pino logger options (e.g. a destination `stream`) or false; the redaction of secrets is always added. */
  logger?: boolean | object;
  /** See TDeps.gatewayApplied (the launcher passes the embedded gateway's). */
  gatewayApplied?: () => Promise<void>;
  /** See TDeps.gatewayHealth (the launcher passes the embedded gateway's). */
  gatewayHealth?: TDeps['gatewayHealth'];
  /** The handlers by route group (default: every feature's); tests leave a group out to see its routes answer 501. */
  handlers?: (deps: TDeps) => THandlers;
};

/** A build file named by its content (`assets/<name>-<hash>.<ext>`, maybe precompressed): it never changes. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.[a-z0-9]+(\.(br|gz))?$/i;
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the API (and the console's static files when built). */
export async function buildApp(options: TAppOptions): Promise<{ app: FastifyInstance; deps: TDeps }> {
  const { config } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : createLoggerOptions(
            config.LOG_LEVEL,
            typeof options.logger === 'object' ? (options.logger as Record<string, unknown>) : {},
          ),
    bodyLimit: 256 * 1024,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: answerClientError,
    // The router's own refusals (a path parameter over 100 characters, a malformed URL) in the envelope.
    frameworkErrors: answerFrameworkError,
  });
  const payProviders = createPayProviders(config);
  const metrics = createApiMetrics({ database: options.database, providers: [...payProviders.keys()] });
  // Every answer is counted by its route's name (or the pattern of a route outside the table), never by its URL.
  app.addHook('onResponse', (req, reply, done) => {
    const route = (req.routeOptions.config as { routeName?: string }).routeName ?? req.routeOptions.url ?? 'unmatched';
    metrics.request(route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Services read the time through this clock: an answer that read it is not kept in memory (lib/answer-cache.ts).
  const clock = clockWatchedByAnswers(options.clock ?? systemClock);
  const answerCache = await createAnswerCache(options.database, {
    maxBytes: config.ANSWER_CACHE_MB * 1024 * 1024,
    clock,
    onCatchUp: metrics.changeFeed.caughtUp,
  });
  app.addHook('onClose', () => answerCache.close());
  const deps: TDeps = {
    config,
    // An operator call's audit entry is written in the transaction that makes its change (features/audit).
    db: auditedDatabase(options.database.db),
    dbKind: options.database.kind,
    clock,
    jwt: createJwt(config.jwtSecret, () => clock.now()),
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        outboxDir: path.join(config.DATA_DIR, 'outbox'),
        log: app.log,
      }),
    // PostgreSQL: counters shared by every API instance; PGlite (one process): in memory.
    authLimiter: await createAuthLimiter({
      max: config.RATE_LIMIT_AUTH_MAX,
      windowS: config.RATE_LIMIT_AUTH_WINDOW_S,
      supply: { max: config.SUPPLY_SUBMIT_MAX, windowS: config.SUPPLY_SUBMIT_WINDOW_S },
      pool: options.database.kind === 'postgres' ? options.database.pool : undefined,
    }),
    log: app.log,
    gatewayApplied: options.gatewayApplied ?? (async () => {}),
    payProviders,
    answerCache,
    metrics,
    gatewayHealth: options.gatewayHealth,
  };
  metrics.attach({
    answerCache: () => answerCache.stats(),
    webhookBacklog: () => readDeliveryBacklog(deps.db, clock.now()),
  });

  const webDist = path.resolve(config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  installErrorHandler(app, { spaFallback: hasWeb });
  // Security headers (helmet), built once: @fastify/helmet built them again on every request, a sixth of a kept answer's cost (bench:api --profile).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  const allowedOrigins = new Set([
    new URL(config.publicUrl).origin,
    ...config.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  ]);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || allowedOrigins.has(origin)),
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'Lang', 'X-API-Key', 'Idempotency-Key'],
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // Multipart bodies (uploads) are read by the routing layer, on the routes declared multipart only;
  // a file over its route's bound arrives cut and marked truncated, for the route's schema to refuse.
  await app.register(multipart, { throwFileSizeLimit: false });

  // API answers may hold secrets (the API key, proxy passwords): no cache keeps any of them.
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith(`${API_PREFIX}/`)) reply.header('cache-control', 'no-store');
  });

  const handlers: THandlers = (options.handlers ?? createFeatureHandlers)(deps);
  await app.register(async (api) => {
    registerRoutes(api, deps, handlers);
  });
  await registerPaymentCallbacks(app, deps);

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Files are looked up per request, so a rebuilt console is served without a restart.
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each asset; the plugin sends the best one the client accepts.
      preCompressed: true,
      // Cache-Control is ours (setHeaders): the plugin's own default (max-age=0) would replace it.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Console files are chosen by Accept-Encoding (CORS has already put Origin in Vary).
    app.addHook('onRequest', async (req, reply) => {
      if (req.url.startsWith(`${API_PREFIX}/`)) return;
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    });
    // The root is a folder to the static plugin; it is the console's page.
    app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  return { app, deps };
}
