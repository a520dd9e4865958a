import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP origin serving release files, as a release host would (tests only). */
export type TFileOrigin = {
  /** The URL of a path on the origin. */
  url(path: string): string;
  /** Requests the origin answered, by path. */
  requests: string[];
  close(): Promise<void>;
};

/** SHA-256 of bytes, lower-case hex. */
export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Starts an origin on 127.0.0.1: `/files/<name>` answers the file with its Content-Length, `/chunked/<name>` the
 * same bytes without one (chunked), `/moved/<name>` redirects to `/files/<name>`, `/stall` never answers; anything
 * else is 404.
 */
export async function startFileOrigin(files: Record<string, Buffer>): Promise<TFileOrigin> {
  const requests: string[] = [];
  const stalled = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const [, kind, name] = /^\/(files|chunked|moved)\/(.+)$/.exec(path) ?? [];
    const body = name ? files[decodeURIComponent(name)] : undefined;
    if (path === '/stall') {
      stalled.add(res);
      return;
    }
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (kind === 'moved') {
      res.writeHead(302, { location: `/files/${name}` }).end();
      return;
    }
    if (kind === 'chunked') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // Two writes, so the body goes out in chunks without a length.
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      res.end(body.subarray(Math.floor(body.length / 2)));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    async close() {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
