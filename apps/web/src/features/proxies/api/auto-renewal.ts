import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

const keyOf = (tokenId: number) => ['proxies', 'auto-renewal', tokenId];

/** A proxy's latest auto-renewal and whether it can be undone (GET /token/auto-renew/latest/{token_id}). */
export function useLatestAutoRenewal(tokenId: number | null) {
  return useQuery({
    queryKey: keyOf(tokenId ?? 0),
    queryFn: ({ signal }) => callApi('tokenAutoRenewal', { token_id: tokenId ?? 0 }, { signal, skipTips: true }),
    enabled: tokenId !== null,
  });
}

/** Undoes a proxy's auto-renewal (POST /token/auto-renew/undo/{token_id}): refund and old expiry; lists and balance reload. */
export function useUndoAutoRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) =>
      callApi('tokenAutoRenewUndo', { token_id: tokenId }, { failureMessage: translate('proxies:undo.failed') }),
    onSettled: (_data, _error, tokenId) => {
      void queryClient.invalidateQueries({ queryKey: keyOf(tokenId) });
      void refreshTokenLists();
      void refreshBalance();
    },
  });
}
