import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** Confirms a contact address with the token of the link mailed to it (POST /token/supply/contact/confirm, no sign-in). */
export function useConfirmContact() {
  return useMutation({
    mutationFn: (token: string) => callApi('supplyContactConfirm', { token }, { skipTips: true }),
  });
}
