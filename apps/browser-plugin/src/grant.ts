import type { TPluginGrantPayload, TPluginRefusal } from '@proxy/contract/plugin-protocol';
import { proxyFromPayload, type TProxySettings } from './settings';

/** Longest grant accepted (a few hundred bytes in practice). */
const GRANT_MAX = 4096;

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** Imports the server's Ed25519 public key (base64 SPKI, written into the package by the server). */
export async function importPublicKey(spkiBase64: string): Promise<CryptoKey> {
  const der = base64UrlToBytes(spkiBase64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  if (!der) throw new Error('public key is not base64');
  return crypto.subtle.importKey('spki', der, { name: 'Ed25519' }, false, ['verify']);
}

/**
 * Verifies a grant: its signature with the server's public key, that it names
 * the console's origin, and its validity window; then the proxy it carries
 * (SOCKS5 refused). Nothing is changed here.
 */
export async function verifyGrant(
  grant: unknown,
  options: { publicKey: CryptoKey; consoleOrigin: string; nowS: number },
): Promise<{ ok: true; proxy: TProxySettings } | { ok: false; reason: TPluginRefusal }> {
  if (typeof grant !== 'string' || grant.length > GRANT_MAX) return { ok: false, reason: 'bad-grant' };
  const [body, signature, ...rest] = grant.split('.');
  const signatureBytes = signature === undefined ? null : base64UrlToBytes(signature);
  const bodyBytes = base64UrlToBytes(body);
  if (rest.length > 0 || !signatureBytes || !bodyBytes) return { ok: false, reason: 'bad-grant' };
  const isSigned = await crypto.subtle
    .verify({ name: 'Ed25519' }, options.publicKey, signatureBytes, new TextEncoder().encode(body))
    .catch(() => false);
  if (!isSigned) return { ok: false, reason: 'bad-grant' };
  let payload: Partial<TPluginGrantPayload>;
  try {
    payload = JSON.parse(new TextDecoder().decode(bodyBytes)) as Partial<TPluginGrantPayload>;
  } catch {
    return { ok: false, reason: 'bad-grant' };
  }
  if (!payload || typeof payload !== 'object') return { ok: false, reason: 'bad-grant' };
  if (payload.origin !== options.consoleOrigin) return { ok: false, reason: 'wrong-origin' };
  if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return { ok: false, reason: 'bad-grant' };
  // A minute of clock difference between the server and this computer is tolerated.
  if (options.nowS > payload.exp || options.nowS < payload.iat - 60) return { ok: false, reason: 'expired-grant' };
  return proxyFromPayload(payload);
}
