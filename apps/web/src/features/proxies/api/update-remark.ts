import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';

/** Saves a proxy's remark (PUT /token/remark/{token_id} with token_id and remark in the body). */
export function updateRemark(tokenId: number, remark: string) {
  return callApi('tokenRemark', { token_id: tokenId, remark });
}

/** Mutation of the inline remark edit; the lists reload afterwards. */
export function useUpdateRemark() {
  return useMutation({
    mutationFn: ({ tokenId, remark }: { tokenId: number; remark: string }) => updateRemark(tokenId, remark),
    onSettled: refreshTokenLists,
  });
}
