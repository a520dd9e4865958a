import { sign } from 'node:crypto';
import { PLUGIN_GRANT_TTL_S, type TLang, type TPluginGrantPayload } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { findUserTokens } from '../proxies/proxies.repository';
import { toProxyToken } from '../proxies/proxies.service';
import type { TPluginSigningKey } from './plugin-keys';

/** Signs a payload as the extension checks it: base64url(JSON) "." base64url(Ed25519 signature of the first part). */
export function signGrant(payload: TPluginGrantPayload, key: TPluginSigningKey): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(null, Buffer.from(body), key.privateKey).toString('base64url')}`;
}

/**
 * A short-lived grant for one of the user's own proxies, for the console's
 * origin only: the extension takes the proxy from it after checking the
 * signature. Another user's or a deleted proxy answers 404; SOCKS5 is refused
 * (Chromium cannot authenticate to a SOCKS5 proxy).
 */
export async function createGrant(
  deps: Pick<TDeps, 'db' | 'config' | 'clock'>,
  key: TPluginSigningKey,
  userId: number,
  tokenId: number,
  lang: TLang,
): Promise<{ grant: string; expires_at: string }> {
  const [row] = await findUserTokens(deps.db, userId, [tokenId]);
  if (!row || row.deletedAt) throw new AppError('NOT_FOUND');
  const token = toProxyToken(row, deps, lang);
  if (token.network === 'SOCKS5') throw new AppError('PLUGIN_SOCKS5_UNSUPPORTED');
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  const payload: TPluginGrantPayload = {
    v: 1,
    origin: new URL(deps.config.publicUrl).origin,
    token_id: token.token_id,
    network: 'HTTP',
    host: token.host,
    port: token.port,
    username: token.username,
    password: token.password,
    area: { country: token.area.country_name, state: token.area.state_name, city: token.area.city_name },
    expires_at: token.expires_at,
    iat: nowS,
    exp: nowS + PLUGIN_GRANT_TTL_S,
  };
  return { grant: signGrant(payload, key), expires_at: new Date(payload.exp * 1000).toISOString() };
}
