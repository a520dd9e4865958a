import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** E-mails a code to the new address (purpose change_email); the caller shows failures. */
export function sendEmailChangeCode(email: string) {
  return callApi('userCode', { email, type: 'change_email' }, { skipTips: true });
}

/** Mutation of the change-email form's send-code button. */
export function useSendEmailChangeCode() {
  return useMutation({ mutationFn: sendEmailChangeCode });
}
