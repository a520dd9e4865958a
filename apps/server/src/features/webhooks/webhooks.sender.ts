import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { WEBHOOK_EXCERPT_MAX, WEBHOOK_HEADERS, WEBHOOK_TIMEOUT_MS, webhookSignedText } from '@proxy/contract';
import { AddressRefusal, guardedLookup, literalHostRefusal } from '../../lib/address-guard';

// The address guard is shared with the software releases' file check (lib/address-guard.ts).
export { AddressRefusal, literalHostRefusal, refusalOf } from '../../lib/address-guard';

/** Where the sender may connect and whom it trusts (WEBHOOK_ALLOW_PRIVATE and WEBHOOK_EXTRA_CA are for tests). */
export type TSenderPolicy = { allowPrivate: boolean; extraCa?: string; timeoutMs?: number };

/** What one attempt gave: an HTTP status (null without an answer), the time taken and the start of the answer or the error. */
export type TSendResult = {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  excerpt: string;
  isAborted: boolean;
};

/** `v1=<hex>`: HMAC-SHA256 of `${timestamp}.${body}` with the endpoint's secret. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(webhookSignedText(timestamp, body)).digest('hex')}`;
}

function loadCa(extraCa: string | undefined): string[] | undefined {
  if (!extraCa) return undefined;
  const pem = extraCa.includes('-----BEGIN') ? extraCa : existsSync(extraCa) ? readFileSync(extraCa, 'utf8') : extraCa;
  return [...tls.rootCertificates, pem];
}

/**
 * Sends signed webhook requests: HTTPS only, to public addresses only (the
 * name is resolved once, the address checked with the contract's
 * addressScope and that address dialled: no rebinding between check and
 * connect), a short timeout, no redirects followed (a 3xx is a failure).
 */
export function createWebhookSender(policy: TSenderPolicy) {
  const ca = loadCa(policy.extraCa);
  const timeoutMs = policy.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  const lookup = guardedLookup(policy.allowPrivate);

  return {
    async send(input: {
      url: string;
      secret: string;
      eventId: string;
      timestamp: number;
      body: string;
      signal?: AbortSignal;
    }): Promise<TSendResult> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const url = new URL(input.url);
      const fail = (excerpt: string, isAborted = false): TSendResult => ({
        ok: false,
        status: null,
        latencyMs: elapsed(),
        excerpt: excerpt.slice(0, WEBHOOK_EXCERPT_MAX),
        isAborted,
      });
      if (url.protocol !== 'https:') return fail('refused: only https:// endpoints are called');
      const literal = literalHostRefusal(url.hostname, policy.allowPrivate);
      if (literal) return fail(literal);
      return new Promise<TSendResult>((resolve) => {
        let isDone = false;
        const finish = (result: TSendResult) => {
          if (isDone) return;
          isDone = true;
          clearTimeout(timer);
          input.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        };
        const req = https.request(
          {
            protocol: 'https:',
            hostname: url.hostname.replace(/^\[|\]$/g, ''),
            port: url.port || 443,
            path: `${url.pathname}${url.search}`,
            method: 'POST',
            agent: false,
            lookup,
            ca,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'ProxyHub-Webhooks/1',
              [WEBHOOK_HEADERS.id]: input.eventId,
              [WEBHOOK_HEADERS.timestamp]: String(input.timestamp),
              [WEBHOOK_HEADERS.signature]: signWebhook(input.secret, input.timestamp, input.body),
              'content-length': Buffer.byteLength(input.body),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              if (size < WEBHOOK_EXCERPT_MAX * 4) chunks.push(chunk);
              size += chunk.length;
              if (size > 64 * 1024) res.destroy();
            });
            const end = () => {
              const status = res.statusCode ?? 0;
              const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOK_EXCERPT_MAX);
              finish({ ok: status >= 200 && status < 300, status, latencyMs: elapsed(), excerpt, isAborted: false });
            };
            res.on('end', end);
            res.on('close', end);
            res.on('error', end);
          },
        );
        const onAbort = () => {
          req.destroy();
          finish(fail('aborted: the server stopped', true));
        };
        const timer = setTimeout(() => {
          req.destroy();
          finish(fail(`timeout after ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        if (input.signal?.aborted) return onAbort();
        input.signal?.addEventListener('abort', onAbort, { once: true });
        req.on('error', (error) =>
          finish(fail(error instanceof AddressRefusal ? error.message : `connection failed: ${error.message}`)),
        );
        req.end(input.body);
      });
    },
  };
}

/** The sender's type. */
export type TWebhookSender = ReturnType<typeof createWebhookSender>;
