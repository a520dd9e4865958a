import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { TOKEN_LIST_QUERY_KEY } from './token-list';

/** Saves a proxy's remark (PUT /token/remark/{token_id} with token_id and remark in the body). */
export function updateRemark(tokenId: number, remark: string) {
  return callApi('tokenRemark', { token_id: tokenId, remark });
}

/** Mutation of the inline remark edit; the lists reload afterwards. */
export function useUpdateRemark() {
  return useMutation({
    mutationFn: ({ tokenId, remark }: { tokenId: number; remark: string }) => updateRemark(tokenId, remark),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TOKEN_LIST_QUERY_KEY }),
  });
}
