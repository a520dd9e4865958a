import type { TOAuthProvider } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Where a provider sends the browser back to: the console's callback page. */
export function getOAuthRedirectUri(provider: TOAuthProvider): string {
  return `${window.location.origin}/oauth/callback/${provider}`;
}

/** Starts GitHub or Google sign-in: the provider's authorization URL (state and PKCE are kept by the server). */
export function getOAuthAuthorizeUrl(provider: TOAuthProvider) {
  return callApi('userOAuthAuthorize', { provider, redirect_uri: getOAuthRedirectUri(provider) });
}
