import type { TDeps } from '../../lib/deps';
import type { THandlers } from '../../lib/routing';
import { finishOAuthSignIn, listOAuthProviders, startOAuthSignIn } from './oauth.service';

/** GitHub and Google sign-in: the providers on offer, the start (state and PKCE) and the finish. */
export function createOAuthHandlers(deps: TDeps): THandlers {
  return {
    userOAuthProviders: async () => listOAuthProviders(deps.config),
    userOAuthAuthorize: async ({ input }) => startOAuthSignIn(deps, input.provider, input.redirect_uri),
    userGithubVerify: async ({ input, lang }) => finishOAuthSignIn(deps, 'github', input, lang),
    userGoogleVerify: async ({ input, lang }) => finishOAuthSignIn(deps, 'google', input, lang),
  };
}
