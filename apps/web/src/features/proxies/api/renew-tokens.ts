import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { refreshBalance } from '../../../entities/user/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import type { TScreenConfig } from '../utils/screens';

/** What a renewal sends: the IP proxies, the days and the chosen payment option. */
export type TRenewRequest = { tokenIds: number[]; days: number; payway: 'balance' };

/** Renews IP proxies (POST /token/ip/renew or /token/variable/ip/renew); answers counts, cost and balance; failures say "renewal failed". */
export function renewTokens(screen: TScreenConfig, request: TRenewRequest) {
  const body = { token_ids: request.tokenIds, days: request.days, payway: request.payway };
  return callApi(screen.renewRoute, body, { failureMessage: translate('proxies:renew.failed') });
}

/** Mutation of the renew dialog; lists and the balance reload afterwards. */
export function useRenewTokens(screen: TScreenConfig) {
  return useMutation({
    mutationFn: (request: TRenewRequest) => renewTokens(screen, request),
    // Not awaited: the answer shows at once while list and balance reload.
    onSettled: () => {
      void refreshTokenLists();
      void refreshBalance();
    },
  });
}
