import { BYTES_PER_GB, proxyUrlOf, type TLang, type TPriceKind, type TProxyToken } from '@proxy/contract';
import type { TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { cityName, countryName, stateName } from '../areas/area-names';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { lockUserTokens, updateToken, type TTokenRow } from './proxies.repository';
import { generateProxyPassword } from './token-credentials';

/**
 * A customer's tokens: how one is shown, what the token services share (price
 * family, traffic allowance, ids), and the edits of one token (status, delete,
 * password, remark). Purchase, renewal, batch actions and the lists are in
 * proxies-<action>.service.ts beside it.
 */

/** Static (pinned exit) or dynamic (rotating). */
export type TProduct = 'static' | 'dynamic';
/** By traffic or by IP. */
export type TBilling = 'traffic' | 'ip';

/** One day in milliseconds. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** What the token services need. */
export type TServiceDeps = Pick<TDeps, 'db' | 'clock' | 'config' | 'gatewayApplied'>;

/** Price family of a token: data-center, else static or dynamic residential. */
export function priceKindOf(token: { category: 'isp' | 'idc'; product: TProduct }): TPriceKind {
  return token.category === 'idc' ? 'idc' : token.product;
}

/** Traffic allowance in bytes of `gb` GB: GB x 1024^3, rounded to the byte (0.1 GB = 107374182 bytes). */
export function trafficBytesOf(gb: number): number {
  // Tenths of a GB are exact integers; the one division rounds once.
  return Math.round((Math.round(gb * 10) * BYTES_PER_GB) / 10);
}

/** A token as the API shows it, in the request's language. */
export function toProxyToken(row: TTokenRow, deps: Pick<TDeps, 'config'>, lang: TLang): TProxyToken {
  const host = deps.config.gatewayPublicHost;
  const port = deps.config.GATEWAY_PUBLIC_PORT;
  return {
    token_id: row.id,
    remark: row.remark,
    product: row.product,
    category: row.category,
    type: row.billing,
    network: row.network,
    area: {
      country: row.country,
      state: row.state,
      city: row.city,
      country_name: countryName(row.country)[lang],
      state_name: stateName(row.country, row.state)[lang],
      city_name: cityName(row.country, row.state, row.city)[lang],
    },
    usage: { used_bytes: row.trafficUsedBytes, limit_bytes: row.trafficLimitBytes },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    status: row.deletedAt ? 'deleted' : row.status,
    auto_renew: row.autoRenew,
    host,
    port,
    username: row.username,
    password: row.password,
    proxy_url: proxyUrlOf({ host, port, username: row.username, password: row.password, network: row.network }),
  };
}

/** Each id once, in first-seen order. */
export function uniqueIds(ids: number[]): number[] {
  return [...new Set(ids)];
}

// The user's live (not deleted) token, locked; another user's or a deleted one is NOT_FOUND.
async function lockOwnLiveToken(tx: TTx, userId: number, id: number): Promise<TTokenRow> {
  const [row] = await lockUserTokens(tx, userId, [id]);
  if (!row || row.deletedAt) throw new AppError('NOT_FOUND');
  return row;
}

/** Enables or disables a token (the gateways drop it within seconds); expired or used-up tokens cannot be switched. */
export async function setTokenStatus(
  deps: TServiceDeps,
  userId: number,
  id: number,
  status: 'enabled' | 'disabled',
  lang: TLang,
): Promise<TProxyToken> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const row = await lockOwnLiveToken(tx, userId, id);
      if (row.status !== 'enabled' && row.status !== 'disabled') throw new AppError('TOKEN_NOT_APPLICABLE');
      if (row.status === status) return toProxyToken(row, deps, lang);
      const updated = await updateToken(tx, id, { status });
      await bumpGatewayVersion(tx);
      return toProxyToken(updated, deps, lang);
    }),
  );
}

/** Deletes a token softly (it can be restored); the gateways stop accepting it. */
export async function deleteToken(deps: TServiceDeps, userId: number, id: number): Promise<void> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockOwnLiveToken(tx, userId, id);
      await updateToken(tx, id, { deletedAt: deps.clock.now() });
      await bumpGatewayVersion(tx);
    }),
  );
}

/** Gives a token a new password; the old one stops working within seconds. */
export async function resetTokenPassword(
  deps: TServiceDeps,
  userId: number,
  id: number,
  lang: TLang,
): Promise<TProxyToken> {
  return changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      await lockOwnLiveToken(tx, userId, id);
      const updated = await updateToken(tx, id, { password: generateProxyPassword() });
      await bumpGatewayVersion(tx);
      return toProxyToken(updated, deps, lang);
    }),
  );
}

/** Edits a token's remark. */
export async function setTokenRemark(
  deps: TServiceDeps,
  userId: number,
  id: number,
  remark: string,
  lang: TLang,
): Promise<TProxyToken> {
  return deps.db.transaction(async (tx) => {
    await lockOwnLiveToken(tx, userId, id);
    return toProxyToken(await updateToken(tx, id, { remark }), deps, lang);
  });
}
