import { useMutation } from '@tanstack/react-query';
import type { TUserInfo } from '@proxy/contract';
import { USER_INFO_QUERY_KEY } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Replaces the personal API key (POST /user/api-key/reset); the old key stops working at once. Failures say "reset failed" with the reason. */
export function resetApiKey() {
  return callApi('userApiKeyReset', undefined, { failureMessage: translate('api-docs:token.resetFailed') });
}

/** Mutation of the reset button: the new key goes straight into the user info. */
export function useResetApiKey() {
  return useMutation({
    mutationFn: resetApiKey,
    onSuccess: ({ token }) => {
      queryClient.setQueryData<TUserInfo>(USER_INFO_QUERY_KEY, (info) => (info ? { ...info, token } : info));
      void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
    },
  });
}
