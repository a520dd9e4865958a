import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Login form values as the API takes them. */
export type TLoginInput = TRouteRequest<'userLogin'>;

/** Signs in with e-mail (or username) and password. */
export function login(input: TLoginInput) {
  return callApi('userLogin', input);
}

/** Mutation of the login form. */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
