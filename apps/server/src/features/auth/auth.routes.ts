import type { TDeps } from '../../lib/deps';
import { withRetryAfter } from '../../lib/rate-limiter';
import type { THandlersOf } from '../../lib/routing';
import { login, register, requestCode, resetPassword } from './auth.service';
import { finishSignInLink, requestSignInLink } from './sign-in-link.service';
import {
  createSession,
  endSession,
  listSessions,
  logout,
  logoutEverywhere,
  refreshSession,
  requireSessionId,
  userAgentOf,
} from './sessions.service';
import {
  disableTotp,
  enableTotp,
  finishTotpSignIn,
  getTotpStatus,
  regenerateRecoveryCodes,
  startTotpSetup,
} from './totp.service';

/** Codes, registration, sign-in (with its two-factor step), two-factor enrolment, password reset, refresh, sign-out and the session list. */
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
    async userLoginLink({ input, ip, lang, req, reply }) {
      await withRetryAfter(reply, () => requestSignInLink(deps, input, { ip, lang, userAgent: userAgentOf(req) }));
      return null;
    },
    async userLoginLinkFinish({ input, ip, lang, req, reply }) {
      return withRetryAfter(reply, () => finishSignInLink(deps, input, { ip, lang, userAgent: userAgentOf(req) }));
    },
    async userLoginTotp({ input, ip, lang, req, reply }) {
      return withRetryAfter(reply, () =>
        finishTotpSignIn(deps, input, { ip, lang, userAgent: userAgentOf(req) }, (user, origin) =>
          createSession(deps, user, origin),
        ),
      );
    },
    async userTotpStatus({ user }) {
      return getTotpStatus(deps, user);
    },
    async userTotpSetup({ user }) {
      return startTotpSetup(deps, user);
    },
    async userTotpEnable({ input, user, req, reply }) {
      return withRetryAfter(reply, () => enableTotp(deps, user, input.code, requireSessionId(req)));
    },
    async userTotpDisable({ input, user, reply }) {
      await withRetryAfter(reply, () => disableTotp(deps, user, input.code));
      return null;
    },
    async userTotpRecoveryCodes({ input, user, reply }) {
      return withRetryAfter(reply, () => regenerateRecoveryCodes(deps, user, input.code));
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
