import http from 'node:http';
import type net from 'node:net';

/** One scrape: its text, the sample names it holds, and the sum of the samples matching a name and labels. */
export type TScrape = {
  text: string;
  /**
   * Every name a query may use: each sample's, and each declared metric's (`# TYPE`), a histogram's as its
   * _bucket, _sum and _count (a metric whose labels have seen nothing yet has no sample, but it is there).
   */
  names: Set<string>;
  /** The sum of the samples of `name` whose labels include `labels` (0 when none). */
  value(name: string, labels?: Record<string, string>): number;
};

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the Prometheus text format (the samples; comments are skipped). */
export function parseExposition(text: string): TScrape {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  const declared: string[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type;
      if (kind === 'histogram') declared.push(`${name}_bucket`, `${name}_sum`, `${name}_count`);
      else if (kind === 'summary') declared.push(name, `${name}_sum`, `${name}_count`);
      else declared.push(name);
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[3] ?? '').matchAll(LABEL)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[4]) });
  }
  return {
    text,
    names: new Set([...samples.map((s) => s.name), ...declared]),
    value: (name, labels = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0),
  };
}

/** A GET on a metrics listener: status, content type and body. */
export function getText(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
  });
}

/** Scrapes `/metrics` (with the bearer token when given); fails on any status but 200. */
export async function scrape(metricsUrl: string, token?: string): Promise<TScrape> {
  const res = await getText(metricsUrl, token ? { authorization: `Bearer ${token}` } : {});
  if (res.status !== 200) throw new Error(`scrape of ${metricsUrl} answered ${res.status}: ${res.body}`);
  return parseExposition(res.body);
}

/** The metrics URL a process printed ("metrics on http://…/metrics"). */
export function metricsUrlIn(output: string): string {
  const match = /metrics on (http:\/\/\S+\/metrics)/.exec(output);
  if (!match) throw new Error(`no metrics URL in:\n${output}`);
  return match[1];
}

/** Sends `bytes` through an open tunnel to an echo and reads them back. */
export async function echoThrough(socket: net.Socket, bytes: number): Promise<void> {
  let got = 0;
  const back = new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      got += chunk.length;
      if (got < bytes) return;
      socket.off('data', onData);
      resolve();
    };
    socket.on('data', onData);
  });
  socket.write(Buffer.alloc(bytes, 7));
  await back;
}
