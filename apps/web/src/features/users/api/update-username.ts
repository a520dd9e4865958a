import { useMutation } from '@tanstack/react-query';
import { USER_INFO_QUERY_KEY } from '../../../entities/users/user-info';
import { callApi } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

/** Changes the username; the answer is the updated user info. */
export function updateUsername(username: string) {
  return callApi('userUpdateProfile', { username });
}

/** Mutation of the change-username form; the header and profile show the new name at once. */
export function useUpdateUsername() {
  return useMutation({
    mutationFn: updateUsername,
    onSuccess: (info) => queryClient.setQueryData(USER_INFO_QUERY_KEY, info),
  });
}
