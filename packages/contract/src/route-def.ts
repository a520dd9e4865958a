import { z } from 'zod';

/** HTTP methods used by the API. */
export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone, a signed-in user (bearer token), an admin,
 * or a user by bearer token or personal API key (the /v1 customer API).
 */
export type TRouteAuth = 'none' | 'user' | 'admin' | 'user-or-key';

/**
 * How the request carries its fields: none (query string), a form, JSON, or
 * multipart/form-data (text fields and files; see routing.ts on the server).
 */
export type TRouteBody = 'none' | 'form' | 'json' | 'multipart';

/**
 * One call of the API. `path` is relative to `/api`, with `:param` segments.
 * `input` validates path params, query and body merged into one object.
 */
export type TRouteDef = {
  method: THttpMethod;
  path: string;
  auth: TRouteAuth;
  body: TRouteBody;
  /** One line for the API docs. */
  summary: string;
  /** API docs group. */
  tag: string;
  input: z.ZodType;
  output: z.ZodType;
  /** Answer is a file, not an envelope. */
  isBlob?: boolean;
  /** Multipart routes: the size bound of each file (longer files reach the schema cut and marked truncated). */
  maxFileBytes?: number;
  /**
   * A signed-in GET whose answer is made only from the caller's rows in tables
   * that notify their changes (migration 0027): the API keeps it in memory
   * until they change (apps/server/src/lib/answer-cache.ts).
   */
  isCachedPerUser?: boolean;
};

/** Declares a route, keeping its literal types. */
export function defineRoute<
  const M extends THttpMethod,
  const P extends string,
  I extends z.ZodType = z.ZodObject<Record<string, never>>,
  O extends z.ZodType = z.ZodNull,
>(def: {
  method: M;
  path: P;
  auth: TRouteAuth;
  body?: TRouteBody;
  summary: string;
  tag: string;
  input?: I;
  output?: O;
  isBlob?: boolean;
  maxFileBytes?: number;
  isCachedPerUser?: boolean;
}) {
  return {
    ...def,
    body: def.body ?? (def.method === 'GET' || def.method === 'DELETE' ? 'none' : 'json'),
    input: (def.input ?? z.object({})) as I,
    output: (def.output ?? z.null()) as O,
  } satisfies TRouteDef;
}

/** Input placeholder of calls whose schema a later feature defines. */
export const zPending = z.record(z.string(), z.unknown());
