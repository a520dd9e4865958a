import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { login, logout, refreshSession, register, requestCode, resetPassword } from './auth.service';

/** Codes, registration, sign-in, password reset, refresh and sign-out. */
export function createAuthHandlers(deps: TDeps): THandlersOf<'auth'> {
  return {
    async userCode({ input, ip, lang }) {
      return requestCode(deps, input, { ip, lang });
    },
    async userRegister({ input, ip, lang }) {
      return register(deps, input, { ip, lang });
    },
    async userLogin({ input, ip, lang }) {
      return login(deps, input, { ip, lang });
    },
    async userResetPassword({ input, ip, lang }) {
      await resetPassword(deps, input, { ip, lang });
      return null;
    },
    async userRefreshToken({ user }) {
      return refreshSession(deps, user);
    },
    async userLogout({ user }) {
      await logout(deps, user);
      return null;
    },
  };
}
