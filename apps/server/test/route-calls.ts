import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_PREFIX, ROUTES, type TRouteDef } from '@proxy/contract';

/**
 * Calls any route of the contract's table by name with an input object, the way
 * a client would: path parameters into the path, the rest into the query string
 * (GET, DELETE without body), a form or a JSON body. Used by the suites
 * generated from the route table (authorization matrix, input fuzzing).
 */

/** Every route with its name, in table order. */
export const ALL_ROUTES = Object.entries(ROUTES as Record<string, TRouteDef>).map(([name, def]) => ({ name, def }));

/** Path parameter names of a route ("/token/:id" -> ["id"]). */
export function pathParams(def: TRouteDef): string[] {
  return [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Inject options of a call. `asForm` / `asJson` force the body encoding (to send JSON to a form route and back). */
export function routeCall(
  def: TRouteDef,
  input: Record<string, unknown>,
  options: { headers?: Record<string, string>; encoding?: 'form' | 'json' } = {},
): InjectOptions {
  const rest = { ...input };
  let url = API_PREFIX + def.path;
  for (const name of pathParams(def)) {
    url = url.replace(`:${name}`, encodeURIComponent(text(rest[name] ?? '1')));
    delete rest[name];
  }
  const headers: Record<string, string> = { ...options.headers };
  const encoding = options.encoding ?? (def.body === 'none' ? undefined : def.body);
  let payload: string | undefined;
  if (!encoding) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) query.append(key, text(value));
    if ([...query].length > 0) url += `?${query}`;
  } else if (encoding === 'multipart') {
    // Text parts only: generated inputs hold no files (a file field gets its value as text, which the schema refuses).
    const boundary = 'route-calls-boundary';
    const parts = Object.entries(rest)
      .filter(([, value]) => value !== undefined)
      .map(
        ([key, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/["\r\n]/g, '_')}"\r\n\r\n${text(value)}\r\n`,
      );
    payload = `${parts.join('')}--${boundary}--\r\n`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  } else if (encoding === 'form') {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) form.append(key, text(value));
    payload = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else {
    payload = JSON.stringify(rest);
    headers['content-type'] = 'application/json';
  }
  return { method: def.method, url, headers, ...(payload === undefined ? {} : { payload }) };
}

/** Calls a route. */
export function callRoute(
  app: FastifyInstance,
  def: TRouteDef,
  input: Record<string, unknown>,
  options: { token?: string; headers?: Record<string, string>; encoding?: 'form' | 'json' } = {},
): Promise<LightMyRequestResponse> {
  const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  return app.inject(routeCall(def, input, { ...options, headers }));
}
