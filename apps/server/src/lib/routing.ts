import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PREFIX,
  ROUTES,
  resolveLang,
  type TLang,
  type TRouteDef,
  type TRouteInput,
  type TRouteName,
  type TRouteOutput,
} from '@proxy/contract';
import { AppError } from './app-error';
import type { TDeps } from './deps';
import { findUserByApiKey, findUserById, type TUserRow } from '../features/users/users.repository';

/** A file answer (export, downloads): sent as is, not wrapped in the envelope. */
export class RawReply {
  constructor(
    readonly body: string | Buffer,
    readonly contentType: string,
    readonly filename?: string,
  ) {}
}

/** What a handler receives. */
export type TRouteContext<N extends TRouteName> = {
  input: TRouteInput<N>;
  /** The signed-in user (routes with auth other than "none"). */
  user: N extends TRouteName ? TUserRow : never;
  /** Signed-in user if a valid token came with a public route. */
  lang: TLang;
  ip: string;
  req: FastifyRequest;
  reply: FastifyReply;
};

/** A route handler returns the answer's data (or a RawReply for files). */
export type THandler<N extends TRouteName> = (ctx: TRouteContext<N>) => Promise<TRouteOutput<N> | RawReply>;
/** Handlers of some routes, keyed by route name. */
export type THandlers = { [N in TRouteName]?: THandler<N> };

/** Language of a request: the Lang header (zh or en). */
export function requestLang(req: FastifyRequest): TLang {
  const header = req.headers['lang'];
  return resolveLang(Array.isArray(header) ? header[0] : header ?? req.headers['accept-language']);
}

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim();
}

/** Resolves the signed-in user from the bearer token; throws 401 / -401. */
export async function authenticate(deps: TDeps, req: FastifyRequest, def: Pick<TRouteDef, 'auth'>): Promise<TUserRow> {
  if (def.auth === 'user-or-key') {
    const headerKey = req.headers['x-api-key'];
    const queryKey = (req.query as Record<string, unknown> | undefined)?.key;
    const key = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? (typeof queryKey === 'string' ? queryKey : undefined);
    if (key && !bearerToken(req)) {
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
  const user = await findUserById(deps.db, claims.userId);
  if (!user || user.tokenVersion !== claims.tokenVersion || user.status !== 'active') {
    throw new AppError('SESSION_REVOKED');
  }
  if (def.auth === 'admin' && !user.isAdmin) throw new AppError('FORBIDDEN');
  return user;
}

/** Turns zod issues into envelope issues with translated messages. */
function collectInput(req: FastifyRequest): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as object) : {};
  return { ...(req.query as object), ...body, ...(req.params as object) };
}

/**
 * Registers every route of the contract. Routes without a handler answer
 * 501 NOT_AVAILABLE (never a fake success).
 */
export function registerRoutes(app: FastifyInstance, deps: TDeps, handlers: THandlers): void {
  for (const [name, def] of Object.entries(ROUTES) as [TRouteName, TRouteDef][]) {
    const handler = handlers[name] as THandler<TRouteName> | undefined;
    app.route({
      method: def.method,
      url: API_PREFIX + def.path,
      handler: async (req, reply) => {
        const lang = requestLang(req);
        const user = def.auth === 'none' ? undefined : await authenticate(deps, req, def);
        if (!handler) throw new AppError('NOT_AVAILABLE');
        const parsed = def.input.safeParse(collectInput(req));
        if (!parsed.success) {
          throw new AppError(
            'BAD_REQUEST',
            undefined,
            parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          );
        }
        const result = await handler({
          input: parsed.data as never,
          user: user as never,
          lang,
          ip: req.ip,
          req,
          reply,
        });
        if (result instanceof RawReply) {
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
