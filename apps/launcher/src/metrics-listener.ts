import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import type { TListenAddress } from '@proxy/contract';

/** What a metrics listener serves: the exposition text and the readiness of its process. */
export type TMetricsSource = {
  text(): Promise<string>;
  contentType: string;
  readiness(): Promise<{ status: 'ready' | 'not_ready' }>;
};

/** A running metrics listener. */
export type TMetricsListener = { port: number; close(): Promise<void> };

const UNAUTHORIZED =
  '未授权：请发送 Authorization: Bearer <令牌>（METRICS_TOKEN）\n' +
  'Unauthorized: send Authorization: Bearer <token> (the metrics token)\n';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The listener Prometheus scrapes, apart from the public ports (METRICS_LISTEN,
 * GATEWAY_METRICS_LISTEN): GET /metrics (with a token set, only with
 * `Authorization: Bearer <token>`; else 401), and GET /health/live and
 * /health/ready (200, or 503 with the reasons) for probes, which need no token.
 * `setting` names the setting in the error when the address cannot be bound.
 */
export async function startMetricsListener(options: {
  listen: TListenAddress;
  token?: string;
  source: TMetricsSource;
  setting: string;
  onError?: (error: unknown) => void;
}): Promise<TMetricsListener> {
  const { source } = options;
  const expected = options.token === undefined ? undefined : digest(options.token);
  const isAuthorized = (header: string | undefined): boolean => {
    if (!expected) return true;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    // Compared as digests, in constant time: the token's length is not told either.
    return match !== null && timingSafeEqual(digest(match[1]), expected);
  };
  const send = (res: http.ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', '只接受 GET / Only GET is accepted\n');
    }
    if (path === '/metrics') {
      if (!isAuthorized(req.headers.authorization)) {
        res.setHeader('www-authenticate', 'Bearer');
        return send(res, 401, 'text/plain; charset=utf-8', UNAUTHORIZED);
      }
      return send(res, 200, source.contentType, await source.text());
    }
    if (path === '/health/live') return send(res, 200, 'application/json; charset=utf-8', '{"status":"live"}');
    if (path === '/health/ready') {
      const readiness = await source.readiness();
      return send(
        res,
        readiness.status === 'ready' ? 200 : 503,
        'application/json; charset=utf-8',
        JSON.stringify(readiness),
      );
    }
    return send(
      res,
      404,
      'text/plain; charset=utf-8',
      '未找到：可用 /metrics、/health/live、/health/ready / Not found: use /metrics, /health/live, /health/ready\n',
    );
  };
  const server = http.createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', '指标读取失败 / Reading the metrics failed\n');
      else res.destroy();
    });
  });
  // Scrapers keep their connection; a stop must not wait for them.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `Invalid configuration:\n  ${options.setting}: cannot listen on ${options.listen.host}:${options.listen.port} ` +
            `(${error.code ?? error.message}); choose another address, or off`,
        ),
      ),
    );
    server.listen({ host: options.listen.host, port: options.listen.port }, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The URL of a listener's /metrics, for the log (an IPv6 host in brackets). */
export function metricsUrl(listen: TListenAddress, port: number): string {
  return `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}/metrics`;
}
