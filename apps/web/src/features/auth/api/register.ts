import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Register form values as the API takes them. */
export type TRegisterInput = TRouteRequest<'userRegister'>;

/** Registers with an e-mailed code; the answer is a session (also when the e-mail already had an account). */
export function register(input: TRegisterInput) {
  return callApi('userRegister', input);
}

/** Mutation of the register form. */
export function useRegister() {
  return useMutation({ mutationFn: register });
}
