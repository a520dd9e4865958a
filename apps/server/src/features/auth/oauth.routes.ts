import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import { userAgentOf } from './sessions.service';
import { finishOAuthSignIn, listOAuthProviders, startOAuthSignIn } from './oauth.service';

/** GitHub and Google sign-in: the providers on offer, the start (state and PKCE) and the finish. */
export function createOAuthHandlers(deps: TDeps): THandlersOf<'oauth'> {
  return {
    userOAuthProviders: async () => listOAuthProviders(deps.config),
    userOAuthAuthorize: async ({ input, ip, reply }) =>
      withRetryAfter(reply, () => startOAuthSignIn(deps, input.provider, input.redirect_uri, ip)),
    userGithubVerify: async ({ input, ip, lang, req, reply }) =>
      withRetryAfter(reply, () => finishOAuthSignIn(deps, 'github', input, { ip, lang, userAgent: userAgentOf(req) })),
    userGoogleVerify: async ({ input, ip, lang, req, reply }) =>
      withRetryAfter(reply, () => finishOAuthSignIn(deps, 'google', input, { ip, lang, userAgent: userAgentOf(req) })),
  };
}
