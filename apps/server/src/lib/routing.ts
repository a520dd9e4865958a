import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Readable } from 'node:stream';
import {
  API_PREFIX,
  ROUTES,
  ROUTE_GROUPS,
  isValidationKey,
  resolveLang,
  type TLang,
  type TRouteDef,
  type TRouteGroupName,
  type TRouteInput,
  type TRouteName,
  type TRouteNameOf,
  type TRouteOutput,
  type TUploadedFile,
} from '@proxy/contract';
import { AppError } from './app-error';
import { runForAnswer } from './answer-cache';
import type { TDeps } from './deps';
import { findUserByApiKey, type TUserRow } from '../features/accounts/accounts.repository';
import { recordAdminCall, runAudited, type TAdminCall } from '../features/audit/audit.service';
import { resumeSession } from '../features/auth/sessions.service';
import { requireAdminTwoFactor } from '../features/system/system-settings.service';

/** A file answer (export, downloads): sent as is, not wrapped in the envelope. */
export class RawReply {
  constructor(
    readonly body: string | Buffer | Readable,
    readonly contentType: string,
    readonly filename?: string,
    /** A status other than 200 (206 for a range) and more headers (Content-Range, ETag...). */
    readonly extra: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

/** The caller of a route by its declared auth: a user, or nobody on public (auth "none") routes. */
export type TRouteUser<N extends TRouteName> = (typeof ROUTES)[N]['auth'] extends 'none' ? undefined : TUserRow;

/** What a handler receives. */
export type TRouteContext<N extends TRouteName> = {
  /** Path parameters, query and body, parsed by the route's input schema. */
  input: TRouteInput<N>;
  /** The signed-in user (every route whose auth is not "none"). */
  user: TRouteUser<N>;
  /** Language of the answer's messages (the Lang header). */
  lang: TLang;
  /** Address of the caller. */
  ip: string;
  req: FastifyRequest;
  reply: FastifyReply;
};

/** A route handler returns the answer's data (or a RawReply for files). */
export type THandler<N extends TRouteName> = (ctx: TRouteContext<N>) => Promise<TRouteOutput<N> | RawReply>;
/** The handlers of one route group, one per route: a server feature answers its whole group. */
export type THandlersOf<G extends TRouteGroupName> = { [N in TRouteNameOf<G>]: THandler<N> };
/** Handlers by group; a group without handlers answers 501 NOT_AVAILABLE. */
export type THandlers = { [G in TRouteGroupName]?: THandlersOf<G> };

/** Language of a request: the Lang header (zh or en). */
export function requestLang(req: FastifyRequest): TLang {
  const header = req.headers['lang'];
  return resolveLang(Array.isArray(header) ? header[0] : (header ?? req.headers['accept-language']));
}

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim();
}

/**
 * What an account whose password must change (the seeded operator's one-time password) may call: its info (the
 * console shows the change), the change itself and signing out. Everything else answers PASSWORD_CHANGE_REQUIRED.
 */
const PASSWORD_CHANGE_ROUTES = new Set<TRouteName>([
  'userInfo',
  'userChangePassword',
  'userRefreshToken',
  'userLogout',
  'userLogoutAll',
]);

/** Resolves the signed-in user from the bearer token and its session; throws 401 / -401. */
export async function authenticate(
  deps: TDeps,
  req: FastifyRequest,
  def: Pick<TRouteDef, 'auth'>,
  isCacheReady = false,
): Promise<TUserRow> {
  if (def.auth === 'user-or-key') {
    const headerKey = req.headers['x-api-key'];
    const queryKey = (req.query as Record<string, unknown> | undefined)?.key;
    const key =
      (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? (typeof queryKey === 'string' ? queryKey : undefined);
    if (key && !bearerToken(req)) {
      // No key holds control characters (a NUL PostgreSQL text cannot even compare) or is that long.
      // eslint-disable-next-line no-control-regex
      if (key.length > 200 || /[\u0000-\u001f\u007f]/.test(key)) throw new AppError('UNAUTHORIZED');
      const user = await findUserByApiKey(deps.db, key);
      if (!user) throw new AppError('UNAUTHORIZED');
      if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
      return user;
    }
  }
  const token = bearerToken(req);
  if (!token) throw new AppError('UNAUTHORIZED');
  const claims = await deps.jwt.verify(token);
  if (!claims) throw new AppError('UNAUTHORIZED');
  // The user (active, same token version) and the token's session (live), in one query; its last use is stamped.
  const user = await resumeSession(deps, req, claims, isCacheReady);
  if (def.auth === 'admin' && !user.isAdmin) throw new AppError('FORBIDDEN');
  // The operator area may require two-factor sign-in (system settings).
  if (def.auth === 'admin') await requireAdminTwoFactor(deps, user);
  return user;
}

// Control characters other than tab, line feed and carriage return (NUL first of all).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** How deep input may nest (objects and arrays); deeper input is refused before anything walks it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What no route takes, found in one walk without recursion (so no depth of
 * input can overflow the stack): input nested deeper than MAX_INPUT_DEPTH,
 * or a string (at any depth) that holds a control character, so no route
 * ever passes one to the database. Answers the path and the message key.
 */
export function findRefusedInput(value: unknown): { path: string; message: 'tooDeep' | 'controlChars' } | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      if (CONTROL_CHARACTERS.test(item.value)) return { path: item.path, message: 'controlChars' };
      continue;
    }
    // An uploaded file's bytes are no text.
    if (!item.value || typeof item.value !== 'object' || item.value instanceof Uint8Array) continue;
    if (item.depth >= MAX_INPUT_DEPTH) return { path: item.path, message: 'tooDeep' };
    const entries = Object.entries(item.value);
    // Pushed last first, so the first field is looked at first.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i];
      stack.push({ value: child, path: item.path ? `${item.path}.${key}` : key, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/**
 * A zod issue as an envelope issue: the schema's own message key when it has
 * one, else a catalogue key by the kind of failure, never zod's English text.
 */
export function toIssue(issue: z.core.$ZodIssue): {
  path: string;
  message: string;
  params?: Record<string, string | number>;
} {
  const path = issue.path.join('.');
  if (isValidationKey(issue.message)) return { path, message: issue.message };
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return { path, message: 'required' };
      return {
        path,
        message:
          issue.expected === 'int' ? 'integerRequired' : issue.expected === 'number' ? 'numberRequired' : 'invalidType',
      };
    case 'too_small':
      return { path, message: 'tooSmall', params: { min: Number(issue.minimum) } };
    case 'too_big':
      return issue.origin === 'string'
        ? { path, message: 'tooLong' }
        : { path, message: 'tooBig', params: { max: Number(issue.maximum) } };
    case 'invalid_format':
      return { path, message: 'invalidFormat' };
    default:
      return { path, message: 'invalidValue' };
  }
}

// Path parameters, query and body merged into the one object the input schema reads.
function collectInput(req: FastifyRequest, multipartFields?: Record<string, unknown>): Record<string, unknown> {
  const body =
    multipartFields ??
    (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as object) : {});
  return { ...(req.query as object), ...body, ...(req.params as object) };
}

/** Size bound of each file of a multipart route that names none. */
const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * The fields of a multipart route's body: text fields as strings, files read
 * into memory as TUploadedFile (bytes cut at the route's bound and marked
 * truncated, for its schema to refuse). A malformed body is BAD_REQUEST;
 * too many parts is PAYLOAD_TOO_LARGE.
 */
async function readMultipart(req: FastifyRequest, def: TRouteDef): Promise<Record<string, unknown>> {
  if (!req.isMultipart()) return {};
  const fields: Record<string, unknown> = {};
  try {
    const parts = req.parts({
      limits: { fileSize: def.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, files: 4, fields: 20, fieldSize: 64 * 1024 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        fields[part.fieldname] = {
          filename: part.filename,
          mimetype: part.mimetype,
          bytes,
          truncated: part.file.truncated,
        } satisfies TUploadedFile;
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError('PAYLOAD_TOO_LARGE');
    throw new AppError('BAD_REQUEST');
  }
  return fields;
}

/**
 * Registers every route of the contract. Routes without a handler answer
 * 501 NOT_AVAILABLE (never a fake success).
 */
export function registerRoutes(app: FastifyInstance, deps: TDeps, handlers: THandlers): void {
  const byName = new Map<string, THandler<TRouteName>>();
  for (const [group, routes] of Object.entries(ROUTE_GROUPS)) {
    const groupHandlers = handlers[group as TRouteGroupName] as Record<string, THandler<TRouteName>> | undefined;
    for (const name of Object.keys(routes)) if (groupHandlers?.[name]) byName.set(name, groupHandlers[name]);
  }
  for (const [name, def] of Object.entries(ROUTES) as [TRouteName, TRouteDef][]) {
    const handler = byName.get(name);
    // Only a signed-in read is kept per account (lib/answer-cache.ts).
    if (def.isCachedPerUser && (def.method !== 'GET' || def.auth !== 'user'))
      throw new Error(`${name}: only a GET with auth "user" may be isCachedPerUser`);
    app.route({
      method: def.method,
      url: API_PREFIX + def.path,
      // The metrics count an answer by this name (lib/metrics.ts).
      config: { routeName: name },
      handler: async (req, reply) => {
        const lang = requestLang(req);
        // Whether memory may answer (lib/answer-cache.ts): asked once, before any lookup.
        const isCacheReady = def.auth === 'user' || def.auth === 'admin' ? await deps.answerCache.ready() : false;
        const user = def.auth === 'none' ? undefined : await authenticate(deps, req, def, isCacheReady);
        if (user?.passwordChangeRequired && !PASSWORD_CHANGE_ROUTES.has(name))
          throw new AppError('PASSWORD_CHANGE_REQUIRED');
        if (!handler) throw new AppError('NOT_AVAILABLE');
        const cacheKey = def.isCachedPerUser ? `${name}\n${lang}\n${req.url}` : undefined;
        if (cacheKey && isCacheReady) {
          const kept = deps.answerCache.answer(user!.id, cacheKey);
          if (kept !== undefined) return reply.type('application/json; charset=utf-8').send(kept);
        }
        // Only multipart routes read multipart bodies (files); the others refuse them as before.
        if (def.body !== 'multipart' && req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        const raw = collectInput(req, def.body === 'multipart' ? await readMultipart(req, def) : undefined);
        // Every operator call that changes data leaves an audit entry, whatever its outcome: a success's in the
        // transaction that makes its change, from the parsed input (features/audit, runAudited).
        const isAudited = def.auth === 'admin' && def.method !== 'GET';
        const call: (TAdminCall & { effects: Record<string, string> }) | undefined = isAudited
          ? {
              operatorId: user!.id,
              route: name,
              method: def.method,
              path: req.url.split('?')[0],
              input: raw,
              effects: {},
              ip: req.ip,
            }
          : undefined;
        const run = async () => {
          const refused = findRefusedInput(raw);
          if (refused) throw new AppError('BAD_REQUEST', undefined, [refused]);
          const parsed = def.input.safeParse(raw);
          if (!parsed.success) throw new AppError('BAD_REQUEST', undefined, parsed.error.issues.map(toIssue));
          if (call) call.input = parsed.data as Record<string, unknown>;
          return handler({ input: parsed.data as never, user: user as never, lang, ip: req.ip, req, reply });
        };
        let result: Awaited<ReturnType<typeof run>>;
        const ticket = cacheKey && isCacheReady ? deps.answerCache.begin(user!.id) : undefined;
        let validUntil = 0;
        try {
          if (cacheKey) ({ result, validUntil } = await runForAnswer(run));
          else if (call) result = await runAudited(deps, call, run);
          else result = await run();
        } catch (error) {
          // A refusal's entry, in its own transaction after the rollback (with what the call did outside the database).
          if (call)
            await recordAdminCall(deps, {
              ...call,
              errorName: error instanceof AppError ? error.errorName : 'INTERNAL',
            });
          throw error;
        }
        if (cacheKey && !(result instanceof RawReply)) {
          // Kept, unless the account changed while it was computed or the answer read the clock.
          const body = Buffer.from(
            JSON.stringify({ code: 0, msg: lang === 'zh' ? '成功' : 'OK', data: result ?? null }),
          );
          if (ticket && validUntil > deps.clock.now().getTime())
            deps.answerCache.keepAnswer(ticket, cacheKey, body, validUntil);
          return reply.type('application/json; charset=utf-8').send(body);
        }
        if (result instanceof RawReply) {
          if (result.extra.status) reply.code(result.extra.status);
          for (const [header, value] of Object.entries(result.extra.headers ?? {})) reply.header(header, value);
          reply.header('content-type', result.contentType);
          if (result.filename) {
            reply.header('content-disposition', `attachment; filename="${encodeURIComponent(result.filename)}"`);
          }
          return reply.send(result.body);
        }
        return { code: 0, msg: lang === 'zh' ? '成功' : 'OK', data: result ?? null };
      },
    });
  }
}
