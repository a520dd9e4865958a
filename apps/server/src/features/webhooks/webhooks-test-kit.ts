import { createHmac, timingSafeEqual } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Test support for webhooks: a local HTTPS receiver with a certificate made for the run, and the receiver's signature check. */

/** A request the receiver got. */
export type TReceived = {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, unknown> };
};

/** How the receiver answers a request: a status, or "hold" (no answer until released). */
export type TReceiverAnswer = number | 'hold';

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl for this run. */
export function makeLocalCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Verifies a delivery as a receiver should: `Webhook-Signature: v1=<hex>` is
 * HMAC-SHA256 of `${Webhook-Timestamp}.${raw body}` with the endpoint's secret
 * (compared in constant time), and the timestamp is within `toleranceS` of `nowS`.
 */
export function verifyWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  nowS: number,
  toleranceS = 300,
): boolean {
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  const signature = String(headers['webhook-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A local HTTPS receiver: keeps every request, answers by `answer` (200 by
 * default; "hold" keeps the response open until `releaseHeld`), and lets a
 * test wait for the n-th request without sleeping.
 */
export async function startHttpsReceiver(
  options: { answer?: (req: TReceived, index: number) => TReceiverAnswer } = {},
) {
  const { key, cert } = makeLocalCertificate();
  const received: TReceived[] = [];
  const held: ServerResponse[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: TReceived['json'];
      try {
        json = JSON.parse(body) as TReceived['json'];
      } catch {
        json = { id: '', type: '', created_at: '', data: {} };
      }
      const entry = { headers: req.headers, body, json };
      received.push(entry);
      const answer = options.answer?.(entry, received.length - 1) ?? 200;
      if (answer === 'hold') held.push(res);
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : `failing with ${answer}`);
      for (const w of waiters.filter((x) => received.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `https://127.0.0.1:${port}/hooks`,
    /** The certificate (PEM) the sender must trust (WEBHOOK_EXTRA_CA). */
    ca: cert,
    received,
    /** Resolves once `n` requests have arrived. */
    waitFor(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    /** Answers the held requests with `status`. */
    releaseHeld(status = 200) {
      for (const res of held.splice(0)) if (!res.writableEnded && !res.destroyed) res.writeHead(status).end('released');
    },
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A running receiver. */
export type THttpsReceiver = Awaited<ReturnType<typeof startHttpsReceiver>>;
