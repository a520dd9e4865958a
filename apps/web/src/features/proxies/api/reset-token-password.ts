import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { TOKEN_LIST_QUERY_KEY } from './token-list';

/** Gives a proxy a new password (PUT /token/reset/{id}); the old one stops working within 5 s. */
export function resetTokenPassword(id: number) {
  return callApi('tokenReset', { id });
}

/** Mutation of the reset-password action; the lists reload afterwards. */
export function useResetTokenPassword() {
  return useMutation({ mutationFn: resetTokenPassword, onSettled: () => queryClient.invalidateQueries({ queryKey: TOKEN_LIST_QUERY_KEY }) });
}
