import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/** E-mails a one-time sign-in link to the account's own address (the same answer whether or not it exists). */
export function requestSignInLink(input: TRouteRequest<'userLoginLink'>) {
  return callApi('userLoginLink', input);
}

/** Signs in with the token of an e-mailed sign-in link (once). */
export function finishSignInLink(input: TRouteRequest<'userLoginLinkFinish'>) {
  return callApi('userLoginLinkFinish', input, { skipTips: true });
}
