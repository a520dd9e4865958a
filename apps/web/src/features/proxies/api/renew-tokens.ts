import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import type { TScreenConfig } from '../utils/screens';

/** What a renewal sends: the IP proxies, the days and the chosen payment option. */
export type TRenewRequest = { tokenIds: number[]; days: number; payway: 'balance' };

/**
 * Renews IP proxies (POST /token/ip/renew or /token/variable/ip/renew); answers counts, cost and balance; failures say "renewal failed".
 * The Idempotency-Key makes a retried renewal debit once.
 */
export function renewTokens(screen: TScreenConfig, request: TRenewRequest, idempotencyKey: string) {
  const body = { token_ids: request.tokenIds, days: request.days, payway: request.payway };
  return callApi(screen.renewRoute, body, {
    failureMessage: translate('proxies:renew.failed'),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** Mutation of the renew dialog; lists and the balance reload afterwards. */
export function useRenewTokens(screen: TScreenConfig) {
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: TRenewRequest; idempotencyKey: string }) =>
      renewTokens(screen, request, idempotencyKey),
    // Not awaited: the answer shows at once while list and balance reload.
    onSettled: () => {
      void refreshTokenLists();
      void refreshBalance();
    },
  });
}
