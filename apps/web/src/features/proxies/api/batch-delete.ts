import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Deletes several proxies (DELETE /token/batch); answers { success, failed, total }; failures say "batch delete failed". */
export function batchDeleteTokens(tokenIds: number[]) {
  return callApi(
    'tokenBatchDelete',
    { token_ids: tokenIds },
    { failureMessage: translate('proxies:batch.delete.error') },
  );
}

/** Mutation of the batch delete button; the lists reload afterwards. */
export function useBatchDeleteTokens() {
  return useMutation({ mutationFn: batchDeleteTokens, onSettled: refreshTokenLists });
}
