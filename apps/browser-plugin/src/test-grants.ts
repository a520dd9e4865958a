// Grants signed as the server signs them, for the extension's tests.
import { generateKeyPairSync, sign } from 'node:crypto';
import type { TPluginGrantPayload } from '@proxy/contract/plugin-protocol';

export const CONSOLE_ORIGIN = 'https://console.example.com';

/** A fresh Ed25519 key pair: the public key as the server writes it into the package (base64 SPKI). */
export function testKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), privateKey };
}

/** A valid HTTP proxy payload issued at `nowS`. */
export function payload(nowS: number, patch: Partial<TPluginGrantPayload> = {}): TPluginGrantPayload {
  return {
    v: 1,
    origin: CONSOLE_ORIGIN,
    token_id: 7,
    network: 'HTTP',
    host: 'gw.example.com',
    port: 7777,
    username: 'u1a2b3c4d5e6',
    password: 'Secret123',
    area: { country: 'United States', state: '', city: '' },
    expires_at: '2026-12-01T08:00:00.000Z',
    iat: nowS,
    exp: nowS + 120,
    ...patch,
  };
}

/** Signs a payload: base64url(JSON) "." base64url(signature). */
export function signGrant(body: unknown, privateKey: ReturnType<typeof testKeys>['privateKey']): string {
  const part = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${part}.${sign(null, Buffer.from(part), privateKey).toString('base64url')}`;
}
