import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Reset-password form values as the API takes them. */
export type TResetPasswordInput = TRouteRequest<'userResetPassword'>;

/** Sets a new password with an e-mailed code. */
export function resetPassword(input: TResetPasswordInput) {
  return callApi('userResetPassword', input);
}

/** Mutation of the reset-password form. */
export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
