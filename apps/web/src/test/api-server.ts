import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server received. */
export type TRecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
};

/** What a handler answers: status, JSON body (or raw text/bytes) and headers. */
export type TReply = { status?: number; json?: unknown; raw?: string | Buffer; headers?: Record<string, string> };

/** Handles `METHOD /path` (path without query), e.g. "GET /api/user/info". */
export type THandler = (request: TRecordedRequest) => TReply | Promise<TReply>;

/** A real HTTP server on 127.0.0.1 standing in for the API (no axios mocking). */
export type TTestApiServer = {
  /** Base URL of the API, e.g. http://127.0.0.1:12345/api */
  apiUrl: string;
  requests: TRecordedRequest[];
  /** Sets (or replaces) the answer of one route. */
  on(route: string, handler: THandler): void;
  close(): Promise<void>;
};

/**
 * Starts the server. It answers CORS preflights because jsdom's
 * XMLHttpRequest enforces CORS exactly like a browser.
 */
export async function startTestApiServer(handlers: Record<string, THandler> = {}): Promise<TTestApiServer> {
  const routes = new Map(Object.entries(handlers));
  const requests: TRecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'Authorization, Content-Type, Lang, Idempotency-Key',
        'access-control-allow-methods': 'GET, POST, PUT, DELETE',
        'access-control-expose-headers': 'Content-Disposition',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const record: TRecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(record);
      const handler = routes.get(`${record.method} ${record.path}`);
      const reply: TReply = handler
        ? await handler(record)
        : { status: 404, json: { code: 404, msg: '', data: null } };
      const body = reply.raw ?? JSON.stringify(reply.json ?? null);
      res.writeHead(reply.status ?? 200, {
        ...cors,
        'content-type': reply.raw === undefined ? 'application/json; charset=utf-8' : 'application/octet-stream',
        ...reply.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    requests,
    on: (route, handler) => routes.set(route, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A successful envelope. */
export function ok(data: unknown): TReply {
  return { json: { code: 0, msg: 'ok', data } };
}
