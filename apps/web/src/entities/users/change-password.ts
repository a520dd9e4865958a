import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../lib/api-client';
import { replaceToken } from '../../lib/session';

/** Current, new and confirmed password. */
export type TChangePasswordInput = TRouteRequest<'userChangePassword'>;

/** Changes the password; the server revokes every other session and answers a fresh token. */
export function changePassword(input: TChangePasswordInput) {
  return callApi('userChangePassword', input);
}

/** Mutation of the change-password form; keeps this browser signed in with the new token. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    // The old token is revoked: store the new one where the old one was ("remember me" kept).
    onSuccess: (session) => replaceToken(session.token),
  });
}
