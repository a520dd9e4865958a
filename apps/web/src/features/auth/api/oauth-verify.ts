import type { TOAuthProvider, TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** What a provider gave back: an authorization code with its state, or (Google) an access token. */
export type TOAuthVerifyInput = TRouteRequest<'userGithubVerify'>;

/** Finishes GitHub or Google sign-in; the answer is a session. Failures say "sign-in failed". */
export function verifyOAuth(provider: TOAuthProvider, input: TOAuthVerifyInput) {
  const options = { failureMessage: translate('auth:oauth.failed') };
  return provider === 'github'
    ? callApi('userGithubVerify', input, options)
    : callApi('userGoogleVerify', input, options);
}
