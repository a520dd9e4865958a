import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import { userAgentOf } from '../auth/sessions.service';
import { changeEmail, changePassword, getUserInfo, updateProfile } from './users.service';

/** The signed-in user's info and user center. */
export function createUserHandlers(deps: TDeps): THandlersOf<'users'> {
  return {
    async userInfo({ user }) {
      return getUserInfo(deps, user);
    },
    async userUpdateProfile({ input, user }) {
      return updateProfile(deps, user, input);
    },
    async userChangeEmail({ input, user }) {
      return changeEmail(deps, user, input);
    },
    async userChangePassword({ input, user, ip, lang, req, reply }) {
      return withRetryAfter(reply, () => changePassword(deps, user, input, { ip, lang, userAgent: userAgentOf(req) }));
    },
  };
}
