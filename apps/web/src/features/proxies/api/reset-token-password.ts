import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';

/** Gives a proxy a new password (PUT /token/reset/{id}); the old one stops working within 5 s. */
export function resetTokenPassword(id: number) {
  return callApi('tokenReset', { id });
}

/** Mutation of the reset-password action; the lists reload afterwards. */
export function useResetTokenPassword() {
  return useMutation({ mutationFn: resetTokenPassword, onSettled: refreshTokenLists });
}
