import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Query key of the signed-in user's live sessions (GET /user/sessions). */
export const USER_SESSIONS_QUERY_KEY = ['users', 'sessions'] as const;

/** The user's live sessions, newest first; the one of this browser is marked `is_current`. */
export function getUserSessions(signal?: AbortSignal) {
  return callApi('userSessions', undefined, { signal, failureMessage: translate('users:sessions.loadFailed') });
}

/** Query options of the session list: reloaded whenever the card is shown. */
export function userSessionsQueryOptions() {
  return queryOptions({
    queryKey: USER_SESSIONS_QUERY_KEY,
    queryFn: ({ signal }) => getUserSessions(signal),
    staleTime: 0,
    retry: false,
  });
}

/** The session list of the user centre. */
export function useUserSessions() {
  return useQuery(userSessionsQueryOptions());
}
