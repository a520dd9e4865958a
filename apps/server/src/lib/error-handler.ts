import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, ERRORS, GENERIC_VALIDATION_KEYS, errorMessage, validationMessage } from '@proxy/contract';
import { AppError } from './app-error';
import { isDatabaseConnectionLost } from './database-errors';
import { isTransactionConflict } from './transaction-retry';
import { requestLang } from './routing';

/** Maps every failure to the envelope; unexpected errors are logged and answered generically. */
export function installErrorHandler(app: FastifyInstance, options: { spaFallback: boolean }): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const lang = requestLang(req);
    if (error instanceof AppError) {
      const def = ERRORS[error.errorName];
      const issues = error.issues?.map((i) => ({
        path: i.path,
        message: validationMessage(i.message, lang, i.params),
      }));
      let msg = errorMessage(error.errorName, lang, error.params);
      // The first issue is the message; generic ones ("Must be at least 1") say which field.
      const first = error.issues?.[0];
      if (first && issues)
        msg =
          first.path && GENERIC_VALIDATION_KEYS.has(first.message)
            ? `${first.path}: ${issues[0].message}`
            : issues[0].message;
      return reply
        .status(def.status)
        .send({ code: def.code, msg, data: { error: error.errorName, ...(issues ? { issues } : {}) } });
    }
    if (isDatabaseConnectionLost(error)) return answerDatabaseLost(req, reply, error);
    if (isTransactionConflict(error)) return answerTransactionConflict(req, reply, error);
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        code: ERRORS.RATE_LIMITED.code,
        msg: errorMessage('RATE_LIMITED', lang),
        data: { error: 'RATE_LIMITED' },
      });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: unparsable body, too large, bad content type.
      const own = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : undefined;
      if (own)
        return reply
          .status(status)
          .send({ code: ERRORS[own].code, msg: errorMessage(own, lang), data: { error: own } });
      if (status === 404 || status === 403) {
        return reply
          .status(404)
          .send({ code: ERRORS.NOT_FOUND.code, msg: errorMessage('NOT_FOUND', lang), data: { error: 'NOT_FOUND' } });
      }
      return reply.status(status).send({
        code: ERRORS.BAD_REQUEST.code,
        msg: errorMessage('BAD_REQUEST', lang),
        data: { error: 'BAD_REQUEST' },
      });
    }
    req.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .send({ code: ERRORS.INTERNAL.code, msg: errorMessage('INTERNAL', lang), data: { error: 'INTERNAL' } });
  });
  app.setNotFoundHandler((req, reply) => {
    // SPA fallback: a non-API GET that is no file serves the console's index.html.
    // Missing build files (/assets/...) answer 404 rather than the page.
    const isPage = !req.url.startsWith(API_PREFIX + '/') && req.url !== API_PREFIX && !req.url.startsWith('/assets/');
    if (options.spaFallback && req.method === 'GET' && isPage) {
      // The Google sign-in popup lands on the callback page and must keep its link to the console window.
      if (req.url.startsWith('/oauth/callback/')) reply.header('cross-origin-opener-policy', 'unsafe-none');
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const lang = requestLang(req);
    return reply
      .status(404)
      .send({ code: ERRORS.NOT_FOUND.code, msg: errorMessage('NOT_FOUND', lang), data: { error: 'NOT_FOUND' } });
  });
}

/** Answers a request whose transaction PostgreSQL aborted as a serialization failure or a deadlock: 409 DATABASE_CONFLICT. */
export function answerTransactionConflict(req: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  req.log.warn({ err: error }, 'transaction conflict (serialization failure or deadlock) answered');
  const def = ERRORS.DATABASE_CONFLICT;
  return reply.status(def.status).send({
    code: def.code,
    msg: errorMessage('DATABASE_CONFLICT', requestLang(req)),
    data: { error: 'DATABASE_CONFLICT' },
  });
}

/** Answers a request whose database connection was lost: 503 DATABASE_UNAVAILABLE in the envelope (logged as a warning). */
export function answerDatabaseLost(req: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  req.log.warn({ err: error }, 'database connection lost during the request');
  const def = ERRORS.DATABASE_UNAVAILABLE;
  return reply.status(def.status).send({
    code: def.code,
    msg: errorMessage('DATABASE_UNAVAILABLE', requestLang(req)),
    data: { error: 'DATABASE_UNAVAILABLE' },
  });
}

/**
 * Answers what Fastify's router refuses before a route is found: a path
 * parameter longer than it takes (414 URI_TOO_LONG), a malformed URL (400),
 * in the envelope, in the caller's language, never kept by a cache.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const name = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URI_TOO_LONG' : 'BAD_REQUEST';
  const def = ERRORS[name];
  void reply
    .status(def.status)
    .header('cache-control', 'no-store')
    .send({ code: def.code, msg: errorMessage(name, requestLang(req)), data: { error: name } });
}

/**
 * Answers what Node's HTTP parser refuses before a request exists (headers or
 * query string too large, malformed request line) with the envelope too. The
 * headers were not read, so the message carries both languages.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const name = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const def = ERRORS[name];
  const body = JSON.stringify({ code: def.code, msg: `${def.zh} / ${def.en}`, data: { error: name } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${def.status} ${STATUS_CODES[def.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
