import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiHttp } from '../lib/api-client';

/** A request the test server received. */
export type TRecordedRequest = {
  method: string;
  /** Path without the /api prefix, e.g. "/user/login". */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Form fields of a form post (empty otherwise). */
  form: URLSearchParams;
  body: string;
};

/** A canned answer: HTTP status (200 by default) and the JSON body. */
export type TAnswer = { status?: number; body: unknown };

/** Answers by "METHOD /path" (path without /api). */
export type THandlers = Record<string, (request: TRecordedRequest) => TAnswer | Promise<TAnswer>>;

/** A success envelope. */
export function ok(data: unknown): TAnswer {
  return { body: { code: 0, msg: 'ok', data } };
}

/** A failure envelope with a real HTTP status. */
export function fail(status: number, code: number, msg: string, data: unknown = null): TAnswer {
  return { status, body: { code, msg, data } };
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the API, so the console's
 * real request layer (axios, headers, envelope rules) runs in the tests.
 * jsdom enforces CORS, hence the permissive headers.
 */
export async function startApiTestServer(handlers: THandlers) {
  const requests: TRecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Lang, Authorization, Content-Type');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const isForm = String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      const recorded: TRecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname.replace(/^\/api/, ''),
        query: url.searchParams,
        headers: req.headers,
        form: new URLSearchParams(isForm ? body : ''),
        body,
      };
      requests.push(recorded);
      const handler = handlers[`${recorded.method} ${recorded.path}`];
      const answer = handler ? await handler(recorded) : fail(404, 404, 'not found');
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const previousBase = apiHttp.defaults.baseURL;
  apiHttp.defaults.baseURL = `http://127.0.0.1:${port}/api`;
  return {
    requests,
    /** Requests to one path. */
    requestsTo: (path: string) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        apiHttp.defaults.baseURL = previousBase;
        // Idle keep-alive sockets only: a request still in flight finishes instead of erroring.
        server.closeIdleConnections();
        server.close(() => resolve());
      }),
  };
}
