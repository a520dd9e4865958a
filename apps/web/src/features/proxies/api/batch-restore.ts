import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Restores several deleted proxies (PUT /token/batch/restore); answers { success, failed, total }; failures say "batch restore failed". */
export function batchRestoreTokens(tokenIds: number[]) {
  return callApi(
    'tokenBatchRestore',
    { token_ids: tokenIds },
    { failureMessage: translate('proxies:batch.restore.error') },
  );
}

/** Mutation of the batch restore button; the lists reload afterwards. */
export function useBatchRestoreTokens() {
  return useMutation({ mutationFn: batchRestoreTokens, onSettled: refreshTokenLists });
}
