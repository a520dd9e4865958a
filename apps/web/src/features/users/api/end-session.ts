import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { USER_SESSIONS_QUERY_KEY } from './user-sessions';

/** Ends one of the user's own sessions (POST /user/sessions/end/:id): that device is signed out on its next call. */
export function endSession(id: number) {
  return callApi('userSessionEnd', { id }, { failureMessage: translate('users:sessions.endFailed') });
}

/** Mutation of a session's "End" button; the list is reloaded whatever the answer (a session may already be gone). */
export function useEndSession() {
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: USER_SESSIONS_QUERY_KEY }),
  });
}
