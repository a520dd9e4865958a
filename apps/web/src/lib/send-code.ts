import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from './api-client';

/** E-mail and purpose of a verification code. */
export type TSendCodeInput = TRouteRequest<'userCode'>;

/**
 * E-mails a 6-digit code. Tips are skipped: the caller shows
 * "verification code send failed" together with the server's reason.
 */
export function sendCode(input: TSendCodeInput) {
  return callApi('userCode', input, { skipTips: true });
}

/** Mutation of a send-code button. */
export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}
