import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from './api-client';
import { translate } from './i18n';

/** E-mail and purpose of a verification code. */
export type TSendCodeInput = TRouteRequest<'userCode'>;

/** E-mails a 6-digit code; failures say "verification code send failed" with the server's reason. */
export function sendCode(input: TSendCodeInput) {
  return callApi('userCode', input, { failureMessage: translate('common:code.failed') });
}

/** Mutation of a send-code button. */
export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}
