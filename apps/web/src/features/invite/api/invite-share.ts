import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** The public share info of an invite code (GET /invite/share/{code}, no token). */
export function useInviteShare(code: string) {
  return useQuery({
    queryKey: ['invite', 'share', code],
    queryFn: ({ signal }) =>
      callApi('inviteShare', { code }, { signal, failureMessage: translate('invite:errors.fetchShare') }),
  });
}
