import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { logout } from '../../../lib/session';

/** Ends every session of the user, this one included (POST /user/logout/all). */
export function logoutEverywhere() {
  return callApi('userLogoutAll', undefined, { failureMessage: translate('users:sessions.signOutAllFailed') });
}

/**
 * Mutation of "Sign out everywhere": once the server has ended every session,
 * this browser signs out as the header's sign-out does (token, tabs and cache
 * cleared, then /login). A failure is toasted and keeps the user signed in.
 */
export function useLogoutEverywhere() {
  return useMutation({
    mutationFn: logoutEverywhere,
    onSuccess: () => logout(),
  });
}
