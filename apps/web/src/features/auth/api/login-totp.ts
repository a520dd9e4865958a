import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** Finishes a two-factor sign-in: the challenge of the first step and a code (or a recovery code). */
export function loginTotp(input: TRouteRequest<'userLoginTotp'>) {
  return callApi('userLoginTotp', input);
}
