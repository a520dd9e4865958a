import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';

/** Deletes a proxy (DELETE /token/{id}); it can be restored from the "deleted" filter. */
export function deleteToken(id: number) {
  return callApi('tokenDelete', { id });
}

/** Mutation of the row's delete action; the lists reload afterwards. */
export function useDeleteToken() {
  return useMutation({ mutationFn: deleteToken, onSettled: refreshTokenLists });
}
