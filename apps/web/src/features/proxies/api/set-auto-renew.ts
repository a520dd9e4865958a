import { useMutation } from '@tanstack/react-query';
import { refreshTokenLists } from '../../../entities/proxies/token-list';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import type { TScreenConfig } from '../utils/screens';

/** Turns auto-renew on or off for IP proxies (POST /token/ip/auto/renew or /token/variable/ip/auto/renew). */
export function setAutoRenew(screen: TScreenConfig, tokenIds: number[], isOn: boolean) {
  return callApi(
    screen.autoRenewRoute,
    { token_ids: tokenIds, auto_renew: isOn },
    { failureMessage: translate('proxies:autoRenew.failed') },
  );
}

/** Mutation of the auto-renew switch and batch button; the lists reload afterwards. */
export function useSetAutoRenew(screen: TScreenConfig) {
  return useMutation({
    mutationFn: ({ tokenIds, isOn }: { tokenIds: number[]; isOn: boolean }) => setAutoRenew(screen, tokenIds, isOn),
    onSettled: refreshTokenLists,
  });
}
