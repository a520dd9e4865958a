import { callApi } from '../../lib/api-client';

/** A short-lived grant for one of the user's proxies (POST /plugin/grant); failures are shown in place, not toasted. */
export function requestPluginGrant(tokenId: number) {
  return callApi('pluginGrant', { token_id: tokenId }, { skipTips: true });
}
