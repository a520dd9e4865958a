import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { AddressRefusal, guardedLookup, literalHostRefusal } from '../../lib/address-guard';

/** Redirects followed to reach a file (release hosts often redirect to a storage host); each hop is guarded. */
const REDIRECTS_MAX = 5;

/** What fetching a release file gave: its size and SHA-256, or why it could not be had whole. */
export type TFetchOutcome =
  | { kind: 'ok'; size: number; sha256: string }
  /** More bytes than allowed (by Content-Length, or read before stopping). */
  | { kind: 'too_large'; found: number }
  | { kind: 'status'; status: number }
  | { kind: 'timeout' }
  | { kind: 'refused'; address: string }
  | { kind: 'failed'; reason: string };

/** Where and how long the fetch may go. */
export type TFetchPolicy = { allowPrivate: boolean; timeoutMs: number };

type THop = { kind: 'redirect'; location: string } | TFetchOutcome;

function fetchOnce(url: URL, maxBytes: number, policy: TFetchPolicy, signal: AbortSignal): Promise<THop> {
  const literal = literalHostRefusal(url.hostname, policy.allowPrivate);
  if (literal) return Promise.resolve({ kind: 'refused', address: url.hostname.replace(/^\[|\]$/g, '') });
  return new Promise<THop>((resolve) => {
    let isDone = false;
    const finish = (hop: THop) => {
      if (isDone) return;
      isDone = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(hop);
    };
    const onAbort = () => finish({ kind: 'timeout' });
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: guardedLookup(policy.allowPrivate),
        headers: { 'user-agent': 'ProxyHub-Releases/1', accept: '*/*', 'accept-encoding': 'identity' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return finish({ kind: 'redirect', location: res.headers.location });
        }
        if (status !== 200) {
          res.resume();
          return finish({ kind: 'status', status });
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.resume();
          return finish({ kind: 'too_large', found: declared });
        }
        const hash = createHash('sha256');
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // The stated size is the cap: nothing past it is read.
          if (size > maxBytes) return finish({ kind: 'too_large', found: size });
          hash.update(chunk);
        });
        res.on('end', () => finish({ kind: 'ok', size, sha256: hash.digest('hex') }));
        res.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
        res.on('close', () => {
          if (!res.complete) finish({ kind: 'failed', reason: 'the connection closed before the end of the file' });
        });
      },
    );
    req.on('error', (error) => {
      if (error instanceof AddressRefusal) {
        const address = /address refused: (\S+)/.exec(error.message)?.[1] ?? url.hostname;
        return finish({ kind: 'refused', address });
      }
      finish({ kind: 'failed', reason: error.message });
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}

/**
 * Fetches a release file (http or https, public addresses only unless allowed, redirects followed and guarded
 * too) and answers its size and SHA-256, reading at most maxBytes (the size the operator stated): a larger file
 * is refused as soon as it shows. The whole fetch has policy.timeoutMs.
 */
export async function fetchReleaseFile(rawUrl: string, maxBytes: number, policy: TFetchPolicy): Promise<TFetchOutcome> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  let url = new URL(rawUrl);
  for (let hop = 0; hop <= REDIRECTS_MAX; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { kind: 'failed', reason: `a redirect to ${url.protocol} is not followed` };
    const result = await fetchOnce(url, maxBytes, policy, signal);
    if (result.kind !== 'redirect') return result;
    try {
      url = new URL(result.location, url);
    } catch {
      return { kind: 'failed', reason: 'the redirect location is not a URL' };
    }
  }
  return { kind: 'failed', reason: `more than ${REDIRECTS_MAX} redirects` };
}
