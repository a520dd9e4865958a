import type { TOAuthProvider, TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** What a provider gave back: an authorization code with its state, or (Google) an access token. */
export type TOAuthVerifyInput = TRouteRequest<'userGithubVerify'>;

/** Finishes GitHub or Google sign-in; the answer is a session. */
export function verifyOAuth(provider: TOAuthProvider, input: TOAuthVerifyInput) {
  return provider === 'github' ? callApi('userGithubVerify', input) : callApi('userGoogleVerify', input);
}
