import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, ROUTES, type TRouteName, type TRouteOutput } from '@proxy/contract';

/** A request the stub received. */
export type TStubRequest = {
  /** Route of the contract's table the request matched (undefined when none did). */
  route: TRouteName | undefined;
  method: string;
  /** Path without the /api prefix, e.g. "/token/remark/1". */
  path: string;
  /** Values of the route's `:params`, e.g. { token_id: "1" }. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Fields of a form post (empty otherwise). */
  form: URLSearchParams;
  /** Parsed body of a JSON request (undefined otherwise). */
  json: unknown;
  headers: http.IncomingHttpHeaders;
};

/** An answer other than a success envelope: a failure envelope or a raw body, with a real HTTP status. */
export class StubReply {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {}
}

/** A failure envelope `{ code, msg, data }` with a real HTTP status. */
export function fail(status: number, code: number, msg: string, data: unknown = null): StubReply {
  return new StubReply(status, JSON.stringify({ code, msg, data }), {
    'content-type': 'application/json; charset=utf-8',
  });
}

/** A raw body (a file of an `isBlob` route, or no envelope at all), 200 unless told. */
export function raw(body: string, options: { status?: number; headers?: Record<string, string> } = {}): StubReply {
  return new StubReply(options.status ?? 200, body, { 'content-type': 'application/octet-stream', ...options.headers });
}

/** No answer at all: the connection is dropped (a network failure as the browser sees it). */
export function dropConnection(): StubReply {
  return new StubReply(0, '', {});
}

/** Answers one route: its `data` (sent as a success envelope and checked against the route's output schema), or a StubReply. */
export type TStubHandler<N extends TRouteName> = (
  request: TStubRequest,
) => TRouteOutput<N> | StubReply | Promise<TRouteOutput<N> | StubReply>;

type TCompiledRoute = {
  name: TRouteName;
  method: string;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
};

/** The contract's table as matchers, the most literal path first (DELETE /token/batch before DELETE /token/:id). */
const COMPILED_ROUTES: TCompiledRoute[] = (Object.keys(ROUTES) as TRouteName[])
  .map((name) => {
    const { method, path } = ROUTES[name];
    const paramNames: string[] = [];
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, param: string) => {
      paramNames.push(param);
      return '([^/]+)';
    });
    const literalSegments = path.split('/').filter((segment) => segment && !segment.startsWith(':')).length;
    return { name, method, pattern: new RegExp(`^${source}$`), paramNames, literalSegments };
  })
  .sort((a, b) => b.literalSegments - a.literalSegments);

function matchRoute(method: string, path: string): { name: TRouteName; params: Record<string, string> } | undefined {
  for (const route of COMPILED_ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params = Object.fromEntries(route.paramNames.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
    return { name: route.name, params };
  }
  return undefined;
}

function parseJson(body: string): unknown {
  try {
    return body ? JSON.parse(body) : undefined;
  } catch {
    return undefined;
  }
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, Lang, Idempotency-Key',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE',
  'access-control-expose-headers': 'Content-Disposition',
};

/**
 * A local stand-in for the API: a real HTTP server on 127.0.0.1 (jsdom's
 * XMLHttpRequest goes through the network, so the console's own request layer
 * runs), answering routes of the contract's table by name. Success answers
 * are checked against the route's output schema when they are sent: a stub
 * that drifts from the contract is recorded in `problems` (the test harness
 * fails the test) and answered with a 500.
 */
export function createApiStub() {
  let handlers = new Map<TRouteName, TStubHandler<TRouteName>>();
  const requests: TStubRequest[] = [];
  const problems: string[] = [];
  let url = '';

  async function answer(request: TStubRequest): Promise<StubReply> {
    const handler = request.route && handlers.get(request.route);
    if (!request.route || !handler) return fail(404, 404, '');
    let result: unknown;
    try {
      result = await handler(request);
    } catch (error) {
      problems.push(`The stub of "${request.route}" threw: ${error instanceof Error ? error.stack : String(error)}`);
      return fail(500, 500, 'stub handler threw');
    }
    if (result instanceof StubReply) return result;
    const checked = ROUTES[request.route].output.safeParse(result);
    if (!checked.success) {
      const issues = checked.error.issues
        .map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`)
        .join('; ');
      problems.push(
        `The stub answer of "${request.route}" (${request.method} ${request.path}) does not match the contract: ${issues}`,
      );
      return fail(500, 500, 'stub answer does not match the contract');
    }
    return new StubReply(200, JSON.stringify({ code: 0, msg: 'ok', data: result }), {
      'content-type': 'application/json; charset=utf-8',
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS_HEADERS).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      const contentType = String(req.headers['content-type'] ?? '');
      const matched = matchRoute(method, path);
      const request: TStubRequest = {
        route: matched?.name,
        method,
        path,
        params: matched?.params ?? {},
        query: url.searchParams,
        form: new URLSearchParams(contentType.includes('application/x-www-form-urlencoded') ? body : ''),
        json: contentType.includes('application/json') ? parseJson(body) : undefined,
        headers: req.headers,
      };
      requests.push(request);
      void answer(request).then(
        (reply) =>
          reply.status === 0
            ? res.destroy()
            : res.writeHead(reply.status, { ...CORS_HEADERS, ...reply.headers }).end(reply.body),
        () => res.destroy(),
      );
    });
  });

  return {
    /** Base URL of the API, e.g. http://127.0.0.1:12345/api (set once listening). */
    get url(): string {
      return url;
    },
    /** Every request received since the last reset, oldest first. */
    requests,
    /** Contract drift and handler errors since the last reset. */
    problems,
    /** Sets (or replaces) the answer of a route of the contract's table. */
    on<N extends TRouteName>(name: N, handler: TStubHandler<N>): void {
      handlers.set(name, handler as unknown as TStubHandler<TRouteName>);
    },
    /** Requests that matched a route, oldest first. */
    requestsTo(name: TRouteName): TStubRequest[] {
      return requests.filter((request) => request.route === name);
    },
    /** Forgets the answers, the requests and the problems. */
    reset(): void {
      handlers = new Map();
      requests.length = 0;
      problems.length = 0;
    },
    async listen(): Promise<void> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
    },
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** A running stub (see createApiStub). */
export type TApiStub = ReturnType<typeof createApiStub>;
