import { useMutation } from '@tanstack/react-query';
import { refreshBalance } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { refreshSupply } from './supply-list';

/** Revokes a pending request (POST /token/supply/revoke/{id}); its frozen fee is released. Failures say "revoke failed". */
export function revokeSupply(id: number) {
  return callApi('supplyRevoke', { id }, { failureMessage: translate('supply:revoke.failed') });
}

/** Mutation of the revoke button; the history and the balance reload after it. */
export function useRevokeSupply() {
  return useMutation({
    mutationFn: revokeSupply,
    onSuccess: () => {
      void refreshSupply();
      void refreshBalance();
    },
  });
}
