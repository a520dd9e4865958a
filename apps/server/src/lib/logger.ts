import type { FastifyRequest } from 'fastify';

/**
 * Log redaction: personal API keys, passwords, codes, tokens and the
 * Authorization / X-API-Key headers never reach a log line, whatever logs them
 * (Fastify's request lines, a feature's own fields, a message string).
 */

const MASK = '[REDACTED]';

/** Query parameters whose values are secrets. */
const SECRET_PARAMS = [
  'key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'refresh_token',
  'code',
  'password',
  'current_password',
  'confirm_password',
  'secret',
];
const SECRET_PARAM_SET = new Set(SECRET_PARAMS);

// A secret query parameter inside any text (a URL in a message or a field).
const SECRET_PARAM_IN_TEXT = new RegExp(`([?&;](?:${SECRET_PARAMS.join('|')})=)[^&;\\s"'#<>]*`, 'gi');
// A personal API key or a bearer credential anywhere in a text.
const API_KEY_IN_TEXT = /\bpk_[A-Za-z0-9_-]{8,}/g;
const BEARER_IN_TEXT = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Masks secret values in a text: query parameters, personal API keys, bearer tokens. */
export function maskSecretsInText(text: string): string {
  if (!text.includes('=') && !text.includes('pk_') && !/bearer/i.test(text)) return text;
  return text
    .replace(SECRET_PARAM_IN_TEXT, `$1${MASK}`)
    .replace(API_KEY_IN_TEXT, `pk_${MASK}`)
    .replace(BEARER_IN_TEXT, `$1${MASK}`);
}

/** A request URL with the values of secret query parameters (key, token, code, password...) masked. */
export function maskUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return maskSecretsInText(url);
  const parts = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq < 0 ? part : part.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is kept as written.
      }
      return SECRET_PARAM_SET.has(name.trim().toLowerCase()) ? `${rawName}=${MASK}` : part;
    });
  return maskSecretsInText(`${url.slice(0, at)}?${parts.join('&')}`);
}

// Field names whose values are secrets wherever they appear (one level deep or at the top).
const SECRET_FIELDS = [
  'password',
  'current_password',
  'confirm_password',
  'passwordHash',
  'password_hash',
  'apiKey',
  'api_key',
  'access_token',
  'authorization',
  'token',
  'key',
  'jwtSecret',
];
// "code" is also an error's code (err.code), so it is masked only inside request data.
const REQUEST_CONTAINERS = ['body', 'input', 'query', 'params', 'form'];

/** pino redact paths (fast-redact syntax). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  ...REQUEST_CONTAINERS.flatMap((c) => [`${c}.code`, `req.${c}.code`, `${c}.*.password`]),
];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// A failed query's message ends with its parameters (keys, hashes, addresses): they never reach the log.
const QUERY_PARAMS_IN_TEXT = /\nparams: [\s\S]*$/;

function maskErrorText(text: string): string {
  return maskSecretsInText(text.replace(QUERY_PARAMS_IN_TEXT, `\nparams: ${MASK}`));
}

/**
 * A copy of an error (same prototype, so the log still names its type) with
 * secrets masked in its message, stack and text fields, query parameters
 * removed, and the same done to its causes.
 */
export function maskError(error: Error, depth = 0): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & Record<string, unknown>;
  for (const [name, value] of Object.entries(error)) {
    if (name === 'params') copy[name] = MASK;
    else if (typeof value === 'string') copy[name] = maskErrorText(value);
    else if (value instanceof Error) copy[name] = depth < 3 ? maskError(value, depth + 1) : MASK;
    else copy[name] = value;
  }
  const hidden = (value: unknown) => ({ value, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(copy, 'message', hidden(maskErrorText(error.message)));
  if (error.stack) Object.defineProperty(copy, 'stack', hidden(maskErrorText(error.stack)));
  if (error.cause !== undefined) {
    Object.defineProperty(
      copy,
      'cause',
      hidden(error.cause instanceof Error && depth < 3 ? maskError(error.cause, depth + 1) : MASK),
    );
  }
  return copy;
}

// Masks texts in a log object's plain fields (two levels), e.g. a URL a feature logs, and in errors.
function maskFields(object: Record<string, unknown>, depth: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(object)) {
    let masked: unknown = value;
    if (typeof value === 'string') masked = maskSecretsInText(value);
    else if (value instanceof Error) masked = maskError(value);
    else if (depth > 0 && isPlainObject(value)) masked = maskFields(value, depth - 1);
    if (masked !== value) {
      copy ??= { ...object };
      copy[name] = masked;
    }
  }
  return copy ?? object;
}

/**
 * Pino options of the API's logger: the level, then the caller's options
 * (a test's destination stream), with the redaction always on top.
 */
export function createLoggerOptions(level: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const serializers = (overrides.serializers as Record<string, unknown> | undefined) ?? {};
  return {
    level,
    ...overrides,
    redact: { paths: REDACT_PATHS, censor: MASK },
    serializers: {
      ...serializers,
      // Fastify's request line, with the query string's secrets masked.
      req(req: FastifyRequest) {
        return {
          method: req.method,
          url: maskUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket ? req.socket.remotePort : undefined,
        };
      },
    },
    hooks: {
      // Message strings: a URL or a key written into the text.
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? maskSecretsInText(a) : a)),
        );
      },
    },
    formatters: {
      log: (object: Record<string, unknown>) => maskFields(object, 2),
    },
  };
}
