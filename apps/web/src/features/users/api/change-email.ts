import { useMutation } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { USER_INFO_QUERY_KEY } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

/** New e-mail and the code sent to it. */
export type TChangeEmailInput = TRouteRequest<'userChangeEmail'>;

/** Changes the e-mail with the code sent to the new address; the answer is the updated user info. */
export function changeEmail(input: TChangeEmailInput) {
  return callApi('userChangeEmail', input);
}

/** Mutation of the change-email form. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: changeEmail,
    onSuccess: (info) => queryClient.setQueryData(USER_INFO_QUERY_KEY, info),
  });
}
