import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { TOKEN_LIST_QUERY_KEY } from './token-list';

/** Deletes a proxy (DELETE /token/{id}); it can be restored from the "deleted" filter. */
export function deleteToken(id: number) {
  return callApi('tokenDelete', { id });
}

/** Mutation of the row's delete action; the lists reload afterwards. */
export function useDeleteToken() {
  return useMutation({ mutationFn: deleteToken, onSettled: () => queryClient.invalidateQueries({ queryKey: TOKEN_LIST_QUERY_KEY }) });
}
