import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import { login, register, requestCode, resetPassword } from './auth.service';
import { endSession, listSessions, logout, logoutEverywhere, refreshSession, requireSessionId, userAgentOf } from './sessions.service';

/** Codes, registration, sign-in, password reset, refresh, sign-out and the session list. */
export function createAuthHandlers(deps: TDeps): THandlersOf<'auth'> {
  return {
    async userCode({ input, ip, lang, reply }) {
      return withRetryAfter(reply, () => requestCode(deps, input, { ip, lang }));
    },
    async userRegister({ input, ip, lang, req, reply }) {
      return withRetryAfter(reply, () => register(deps, input, { ip, lang, userAgent: userAgentOf(req) }));
    },
    async userLogin({ input, ip, lang, req, reply }) {
      return withRetryAfter(reply, () => login(deps, input, { ip, lang, userAgent: userAgentOf(req) }));
    },
    async userResetPassword({ input, ip, lang, reply }) {
      await withRetryAfter(reply, () => resetPassword(deps, input, { ip, lang }));
      return null;
    },
    async userRefreshToken({ user, req }) {
      return refreshSession(deps, user, requireSessionId(req));
    },
    async userLogout({ user, req }) {
      await logout(deps, user.id, requireSessionId(req));
      return null;
    },
    async userLogoutAll({ user }) {
      await logoutEverywhere(deps, user.id);
      return null;
    },
    async userSessions({ user, req }) {
      return listSessions(deps, user.id, requireSessionId(req));
    },
    async userSessionEnd({ input, user }) {
      await endSession(deps, user.id, input.id);
      return null;
    },
  };
}
