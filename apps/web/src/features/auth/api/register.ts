import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Register form values as the API takes them. */
export type TRegisterInput = TRouteRequest<'userRegister'>;

/**
 * Registers with an e-mailed code; the answer is a session (also when the e-mail already had an account).
 * A failure is told as "Register failed, please try again" with the server's reason (unless the form shows it under a field).
 */
export function register(input: TRegisterInput) {
  return callApi('userRegister', input, { failureMessage: translate('auth:register.failed') });
}

/** Mutation of the register form. */
export function useRegister() {
  return useMutation({ mutationFn: register });
}
